// Package conformance holds the harness's self-test: the suites run against
// the reference relay, clean and with each fault switch on. Its tests prove
// that every check can fail (see kill_test.go).
package conformance
