// Command nipcl-conform is the NIP-CL conformance harness: it runs the
// conformance suites against a relay (by default the built-in reference
// relay), serves the reference relay, and prints the case and fault
// catalogues.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

const usage = `nipcl-conform — conformance test harness for NIP-CL relays

Usage:
  nipcl-conform run [flags]          run the suites (default: every profile against the built-in reference relay)
  nipcl-conform serve [flags]        run the reference relay standalone
  nipcl-conform bench [--target NAME=URL] [--profile P] [--channels N] [--concurrency N] [--duration D] [--safe]
                                     measure mutations/s and OK, snapshot and discovery latencies, one column per relay
  nipcl-conform faults [--where]     list the reference relay's fault switches (the clause each breaks) and relay policies (--policy);
                                     --where: where the relay's code consults each switch (file:line)
  nipcl-conform kill FAULT [FAULT...] [--report-dir DIR] [--sections]
                                     judge faults as the kill test does: the built-in relay with the fault on, only the cases
                                     citing its clause; prints the killers (and bystanders); exit 1 when one survives
  nipcl-conform client [--profile P] [--client-cmd CMD] [--client-fault NAME] [--repeat N]   test a client: the harness plays a misleading relay (docs/client-mode.md)
  nipcl-conform list [--profile P] [--clauses]
                                     list the conformance cases, or the spec clauses and the cases covering them
  nipcl-conform explain ID           show one case, clause (e.g. labels/snapshot.3) or section
  nipcl-conform matrix [--target NAME=URL] [--results NAME=FILE] [--profile P] [--no-reference]
                                     implementations × cases: reference relays, live relays and earlier runs side by side
  nipcl-conform report diff OLD.json NEW.json
                                     list regressions and fixes between two runs
  nipcl-conform report merge OUTDIR A.json B.json ...
                                     join the results of shards (run --shard i/N) into one set of reports
  nipcl-conform report verify RESULTS.json
                                     check a results file is consistent; print the version, profile and draft revisions it claims
  nipcl-conform spec check|diff|annotate DRAFT.md ...   for spec editors: sentence coverage, revision diffs, annotated drafts
  nipcl-conform version [--json]     the harness version and commit, the case catalogue's fingerprint, the spec revisions it targets (also --version)
  nipcl-conform help [command]       this text, or a command's flags

Examples:
  nipcl-conform run
  nipcl-conform run --target ws://127.0.0.1:7447 --profile labels
  nipcl-conform serve --addr 127.0.0.1:7447 --profile identity
  nipcl-conform run --profile labels --fault labels-unsorted   # see the harness catch a broken relay

Exit codes (run):
  0  every required (MUST) case passed
  1  a required case failed or timed out (or the relay lacks nip-cl)
  2  setup or harness error: bad flags, unreachable target, no NIP-11 document, unwritable or busy report directory,
     a relay of which the capability probe observed nothing (every connection dropped, every write unanswered)
  3  no required case failed, but required cases were blocked by unmet preconditions (see the incompatible lines)
  4  incomplete: the run was stopped (SIGINT, SIGTERM or --deadline) before every case ran; its not-run cases say nothing about the relay

Exit codes (report verify): 0 consistent, 1 not (the problems are listed), 2 unreadable input.

Every run also writes badge.svg: MUST cases passed / MUST cases not skipped or unsupported.
`

func main() {
	// NIPCL_CPUPROFILE=FILE writes a CPU profile of the whole command
	// (BENCHMARKS.md: where the in-process run's time goes); a worker of
	// run --parallel writes FILE.worker-N beside its parent's (which holds
	// the relays).
	if path := os.Getenv("NIPCL_CPUPROFILE"); path != "" {
		if w, err := workerFromEnv(); err == nil && w != nil {
			path += fmt.Sprintf(".worker-%d", w.Worker)
		}
		if f, err := os.Create(path); err == nil && pprof.StartCPUProfile(f) == nil {
			code := dispatch(os.Args[1:], os.Stdout, os.Stderr)
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(code)
		}
	}
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch runs one subcommand and returns the process exit code.
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdout, stderr)
	case "bench":
		return cmdBench(args[1:], stdout, stderr)
	case "faults":
		return cmdFaults(args[1:], stdout, stderr)
	case "kill":
		return cmdKill(args[1:], stdout, stderr)
	case "list":
		return cmdList(args[1:], stdout, stderr)
	case "explain":
		return cmdExplain(args[1:], stdout, stderr)
	case "matrix":
		return cmdMatrix(args[1:], stdout, stderr)
	case "report":
		return cmdReport(args[1:], stdout, stderr)
	case "spec":
		return cmdSpec(args[1:], stdout, stderr)
	case "client":
		return cmdClient(args[1:], stdout, stderr)
	case "version", "--version", "-version":
		return cmdVersion(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		if len(args) > 1 {
			return dispatch([]string{args[1], "--help"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "nipcl-conform: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}
