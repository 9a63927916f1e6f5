// Package hostkey checks that the harness can drive a deployment whose
// communities admit different keys (outside NIP-29 and NIP-CL): given
// --host-key for the second community the labels suite passes, community
// cases included; where the second community does not admit the key the
// harness signs with there, the run reports one incompatible line that
// names --host-key, and no case fails.
package hostkey

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/conformance"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// TestHostKey runs, in one run (a process runs the suites once) that
// passes --host-key localhost=K, the labels profile against a reference
// relay whose second community (Host localhost) admits only K, and
// against one whose second community admits only another key.
func TestHostKey(t *testing.T) {
	sk, other := nostr.GeneratePrivateKey(), nostr.GeneratePrivateKey()
	pub := func(sk string) string { p, _ := nostr.GetPublicKey(sk); return p }
	ref := func(name, admitted string) runner.Plan {
		cfg := reference.Config{Profile: framework.ProfileLabels, HostAdmittedKeys: map[string][]string{"localhost": {admitted}}}
		return runner.Plan{Name: name, Profile: framework.ProfileLabels, Target: &runner.ReferenceTarget{Config: cfg}}
	}
	res, err := runner.Run(context.Background(), runner.Options{
		Plans:     []runner.Plan{ref("with-key", pub(sk)), ref("other-key", pub(other))},
		Focus:     []string{"labels/community/", "labels/snapshot/1"},
		ReportDir: t.TempDir(), StepTimeout: 5 * time.Second, Deadline: 4 * time.Minute,
		HostKeys: []string{"localhost=" + sk},
	})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	passed := map[string]int{}
	for _, c := range res.Cases {
		switch {
		case c.Outcome == reports.Pass:
			passed[c.Plan]++
		case c.Plan == "other-key" && c.Outcome == reports.Fail:
			t.Errorf("another community's key: %s failed (want blocked, not failures): %s", c.ID, c.Message)
		case c.Plan == "with-key":
			t.Errorf("with --host-key: %s is %s: %s", c.ID, c.Outcome, c.Message)
		}
	}
	if passed["with-key"] < 6 {
		t.Errorf("with --host-key: %d cases passed, want the 5 community cases and labels/snapshot/1", passed["with-key"])
	}
	line := conformance.OneIncompatibleLine(t, res, "other-key", "--host-key")
	t.Logf("passed %v; incompatible: %d cases: %s", passed, len(line.Cases), line.Message)
	if len(line.Cases) != 5 {
		t.Errorf("another community's key: the incompatible line should stand for the 5 community cases: %+v", line)
	}
	for _, c := range res.Cases {
		if strings.Contains(c.Message, sk) {
			t.Errorf("%s: the report carries the --host-key secret", c.ID)
		}
	}
}
