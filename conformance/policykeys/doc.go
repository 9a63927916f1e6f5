// Package policykeys runs conformance/policies' proof with configured keys
// (runner.Options.ActorKeys, the run's --actor-key): under each relay
// policy a conformant reference relay gets no failure, the capability
// probe assigns actors by what each key may do (the one key that may
// create groups, passed last, becomes every case's creator), and what no
// passed key can be is reported once, naming the kind of key missing.
//
// It is its own package because runner.Run runs once per process.
package policykeys
