package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/nipcl/nipcl-conform/suites"
)

// Prepare starts plan's target and probes it the way Run does (NIP-11,
// AUTH on connect, profile resolution) and returns the ready suites.Env,
// without running Ginkgo. It is for Go teams that run the suites inside
// their own Ginkgo suite:
//
//	env, stop, err := runner.Prepare(ctx, runner.Options{}, plan)
//	// handle err, defer stop()
//	suites.Define(env) // before RunSpecs
//
// Ginkgo's own flags (-ginkgo.label-filter, -ginkgo.junit-report, …) then
// select and report the cases. Of opts, the fields that shape the Env are
// used (StepTimeout, ActorKeys, Hosts, RelayPubKey, Force, Scale, Safe,
// Rate, AllowHeavy, Slow, RoleMap, RunID, Focus, Skip, Shard, LabelFilter);
// the reporting fields (ReportDir, JUnitPath, Out, Baseline, Deadline) are
// not, since Ginkgo reports.
//
// An error means the target could not be set up; the returned func, never
// nil, stops the target and may be called in every case. A relay that does
// not advertise the profile asked for is not an error: the Env then carries
// the reason in Unsupported and its profile cases are skipped.
func Prepare(ctx context.Context, opts Options, plan Plan) (*suites.Env, func(), error) {
	noop := func() {}
	if plan.Target == nil {
		return nil, noop, errors.New("runner: plan has no target")
	}
	opts.defaults()
	if plan.Name == "" {
		plan.Name = plan.Profile
		if plan.Name == "" {
			plan.Name = "auto"
		}
	}
	if err := suites.Validate(); err != nil {
		return nil, noop, fmt.Errorf("harness error: %w", err)
	}
	if opts.LabelFilter != "" {
		if _, err := types.ParseLabelFilter(opts.LabelFilter); err != nil {
			return nil, noop, fmt.Errorf("label filter %q: %w", opts.LabelFilter, err)
		}
	}
	runID := opts.RunID
	if runID == "" {
		runID = NewRunID()
	}
	if !ValidRunID(runID) {
		return nil, noop, fmt.Errorf("runner: run ID %q: want 1-16 lowercase letters, digits or '-' (it becomes part of labels)", runID)
	}
	p := prepare(ctx, &opts, plan, runID)
	stop := func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = p.target.Stop(stopCtx)
	}
	if p.env.SetupErr != nil {
		stop()
		return nil, noop, fmt.Errorf("runner: set up %s: %w", plan.Target, p.env.SetupErr)
	}
	return p.env, stop, nil
}
