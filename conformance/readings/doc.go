// Package readings is the harness's proof that it accepts every careful
// reading: the whole suite runs against the reference relay under every
// non-default value of every reading of clause.Readings (in each profile
// the reading applies to), and every case must pass. A check that accepted
// only one reading of an open sentence would fail here.
//
// It is its own package because Ginkgo allows one RunSpecs per test binary
// and conformance's TestKill already has the one of that package.
package readings
