// Package runner owns the flow of a conformance run: it starts each plan's
// target (a URL, the in-process reference relay or a container), probes it
// (NIP-11, AUTH behaviour, profile), registers the suites for every plan,
// runs them in one Ginkgo RunSpecs call, classifies every case into an
// outcome class and writes the reports.
package runner
