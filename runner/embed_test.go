package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/reference"
)

// Prepare's setup errors come back as errors, before any target starts.
// (The success path is exercised by examples/ginkgo-suite: a test binary
// may call RunSpecs only once, and this package's tests already do.)
func TestPrepareErrors(t *testing.T) {
	ref := &ReferenceTarget{Config: reference.Config{Profile: "labels"}}
	for _, tc := range []struct {
		name string
		opts Options
		plan Plan
		want string
	}{
		{"no target", Options{}, Plan{Profile: "labels"}, "no target"},
		{"bad label filter", Options{LabelFilter: "labels &&"}, Plan{Target: ref, Profile: "labels"}, "label filter"},
		{"bad run ID", Options{RunID: "Not Valid"}, Plan{Target: ref, Profile: "labels"}, "run ID"},
		{"bad actor key", Options{ActorKeys: []string{"zz"}}, Plan{Target: ref, Profile: "labels"}, "set up"},
	} {
		env, stop, err := Prepare(context.Background(), tc.opts, tc.plan)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tc.name, err, tc.want)
		}
		if env != nil || stop == nil {
			t.Errorf("%s: env = %v, stop nil = %v; want nil env and a stop func", tc.name, env, stop == nil)
		}
		stop()
	}
}
