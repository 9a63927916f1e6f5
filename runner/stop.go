package runner

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"time"
)

// Stop is why the harness stopped a run before every case ran: the cause
// of a cancelled run context (context.Cause). Cases the stop kept from
// running, or cut short, are reports.NotRun, never a verdict on the relay.
type Stop struct {
	// By says what stopped the run, in words: "an interrupt (SIGINT)",
	// "a cancel (SIGTERM)", "the run's deadline (--deadline 5m0s)".
	By string
}

func (s *Stop) Error() string { return "stopped by " + s.By }

// StopBySignal is the Stop a signal means: SIGINT an interrupt (Ctrl-C),
// SIGTERM a cancel (a CI job cancelled, a container stopped).
func StopBySignal(sig os.Signal) error {
	switch sig {
	case os.Interrupt:
		return &Stop{By: "an interrupt (SIGINT)"}
	case syscall.SIGTERM:
		return &Stop{By: "a cancel (SIGTERM)"}
	}
	return &Stop{By: "signal " + sig.String()}
}

// StopByDeadline is the Stop of a run whose deadline passed.
func StopByDeadline(d time.Duration) error {
	return &Stop{By: "the run's deadline (--deadline " + d.String() + ")"}
}

// stopReason says what stopped a run: the Stop its context was cancelled
// with, else what Ginkgo reported (ginkgo: its special suite failure
// reasons), else "" (nothing stopped it).
func stopReason(ctx context.Context, ginkgo string, deadline time.Duration) string {
	var s *Stop
	if errors.As(context.Cause(ctx), &s) {
		return s.By
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded), strings.Contains(ginkgo, "Timeout"):
		return "the run's deadline (--deadline " + deadline.String() + ")"
	case strings.Contains(ginkgo, "Interrupted"):
		return "an interrupt (SIGINT or SIGTERM)"
	case ctx.Err() != nil:
		return "a cancelled run (its context ended)"
	case ginkgo != "":
		return ginkgo
	}
	return ""
}
