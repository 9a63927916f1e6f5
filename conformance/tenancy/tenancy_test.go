// Package tenancy checks that the harness can drive a deployment that asks
// more of its clients than NIP-29 and NIP-CL do (a proxy's header): given
// the flag it passes, without it the run says so in one clear line instead
// of failing cases, and the header's value is never written anywhere.
package tenancy

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

const secret = "Bearer s3cr3t-tenancy-token"

// assertNoSecret: no report file carries the header's value.
func assertNoSecret(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), "s3cr3t") {
			t.Errorf("%s carries the --header value in clear", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRequiredHeader runs three reference relays behind a header-checking
// proxy (RequireHeader) in one run (a process runs the suites once) that
// sends --header 'Authorization: …': the relay wanting that header passes;
// with a fault, failing cases' repro commands name the header and hide its
// value; a relay wanting another header stops at setup with one line that
// names --header, no case failed. No report file carries the value.
func TestRequiredHeader(t *testing.T) {
	ref := func(name string, cfg reference.Config) runner.Plan {
		cfg.Profile = framework.ProfileLabels
		return runner.Plan{Name: name, Profile: cfg.Profile, Target: &runner.ReferenceTarget{Config: cfg}}
	}
	dir := t.TempDir()
	res, err := runner.Run(context.Background(), runner.Options{
		Plans: []runner.Plan{
			ref("header", reference.Config{RequireHeader: "Authorization: " + secret}),
			ref("header-fault", reference.Config{RequireHeader: "Authorization: " + secret, Faults: []string{"labels-create-no-dedup"}}),
			ref("other-header", reference.Config{RequireHeader: "X-Proxy-Key: other"}),
		},
		ReportDir: dir, StepTimeout: 5 * time.Second, Deadline: 3 * time.Minute,
		Focus: []string{"labels/initial-labels"}, Header: http.Header{"Authorization": {secret}},
	})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	passed, failed := 0, 0
	for _, c := range res.Cases {
		switch {
		case c.Plan == "header" && c.Outcome == reports.Pass:
			passed++
		case c.Plan == "header" && c.Outcome != reports.Skipped && c.Outcome != reports.Unsupported:
			t.Errorf("with the header: %s is %s: %s", c.ID, c.Outcome, c.Message)
		case c.Plan == "header-fault" && c.Outcome == reports.Fail:
			failed++
			if !strings.Contains(c.Repro, "--header 'Authorization: <redacted>'") {
				t.Errorf("%s repro %q does not name the redacted header", c.ID, c.Repro)
			}
		case c.Plan == "other-header" && c.Outcome == reports.Fail:
			t.Errorf("without the header: %s failed (want the setup error, not failures): %s", c.ID, c.Message)
		}
	}
	if passed == 0 {
		t.Error("with the header: no case passed")
	}
	if failed == 0 {
		t.Error("the fault labels-create-no-dedup failed no case: no repro command to check")
	}
	for _, p := range res.Plans {
		switch p.Name {
		case "header", "header-fault":
			if p.SetupError != "" {
				t.Errorf("%s: setup error %q", p.Name, p.SetupError)
			}
		case "other-header":
			if !strings.Contains(p.SetupError, "--header") || strings.Contains(p.SetupError, "\n") {
				t.Errorf("without the header: setup error %q, want one line naming --header", p.SetupError)
			}
		}
	}
	assertNoSecret(t, dir)
}
