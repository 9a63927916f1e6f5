// Package lawful holds the lawful-relay property: under every combination
// of lawful variants of the reference relay (reference.Variants), a clean
// relay gets no failing case and only blocked or unsupported lines a
// variant explains, and a fault drawn beside them is caught wherever it is
// observable. `go test ./conformance/lawful -run Lawful -lawful.n=500`
// draws 500 combinations per profile; CI draws 2 from a fixed seed.
package lawful
