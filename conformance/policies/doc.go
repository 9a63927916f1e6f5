// Package policies is the harness's proof that relay policies — what real
// relays configure and no NIP forbids (reference.Policies) — never make a
// conformant relay fail: the whole suite runs against the reference relay
// under each policy, in every profile, with the harness's generated keys,
// and every case must pass or be blocked by the one precondition the
// policy leaves unmet, reported once per plan with the advice that meets
// it. Under a policy combined with a fault, the fault is still caught
// unless the cases that would catch it are blocked by that precondition.
//
// It is its own package because Ginkgo allows one RunSpecs per test binary
// and runner.Run runs once per process; conformance/policykeys runs the
// same proof with configured keys (--actor-key).
package policies
