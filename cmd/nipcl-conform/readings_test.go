package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nipcl/nipcl-conform/clause"
)

func TestReadingUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--reading", "no-such-reading=x"}, "unknown reading"},
		{[]string{"run", "--reading", "labels-live-snapshots=sometimes"}, "has no value"},
		{[]string{"run", "--reading", "labels-live-snapshots"}, "want ID=VALUE"},
		{[]string{"run", "--profile", "nip29", "--reading", "labels-live-snapshots=latest"}, "applies only to profile labels"},
		{[]string{"run", "--target", "ws://127.0.0.1:1", "--reading", "nip29-join-open-group=review"}, "built-in reference relay only"},
		{[]string{"run", "--reading", "nip29-join-open-group=review", "--reading", "nip29-join-open-group=admit"}, "given twice"},
		{[]string{"serve", "--reading", "no-such-reading=x"}, "unknown reading"},
		{[]string{"serve", "--profile", "identity", "--reading", "labels-live-snapshots=latest"}, "applies only to profile labels"},
		{[]string{"list", "--readings", "--clauses"}, "exclusive"},
	} {
		code, _, errs := runDispatch(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

func TestListAndExplainReadings(t *testing.T) {
	code, out, errs := runDispatch(t, "list", "--readings")
	if code != 0 {
		t.Fatalf("list --readings: exit %d, %s", code, errs)
	}
	for _, rd := range clause.Readings() {
		if !strings.Contains(out, rd.ID) || !strings.Contains(out, strings.Join(rd.ValueNames(), " | ")) {
			t.Errorf("list --readings lacks %s (%v)", rd.ID, rd.ValueNames())
		}
		code, ex, errs := runDispatch(t, "explain", rd.ID)
		if code != 0 || !strings.Contains(ex, rd.Default()+" ") || !strings.Contains(ex, "(default)") || !strings.Contains(ex, rd.Cases[0]) {
			t.Errorf("explain %s: exit %d %s\n%s", rd.ID, code, errs, ex)
		}
	}
	code, out, _ = runDispatch(t, "list", "--readings", "--profile", "nip29")
	if code != 0 || strings.Contains(out, "labels-live-snapshots") || !strings.Contains(out, "nip29-roleless-put-user") {
		t.Errorf("list --readings --profile nip29: exit %d\n%s", code, out)
	}
	code, out, _ = runDispatch(t, "explain", "identity/tags/5")
	if code != 0 || !strings.Contains(out, "reading identity-created-at") {
		t.Errorf("explain identity/tags/5 does not name its reading:\n%s", out)
	}
}

// TestRunWithReading: the built-in relay takes the reading, the cases
// pass, and the report names the reading on the target. The run takes the
// section of the case that notes the reading (base/edit): every case
// under every reading value is conformance/readings' proof.
//
// The run is the built binary's, not this process's: Ginkgo (one RunSpecs
// per process) refuses to run under a -test.parallel the command line or
// TestMain set.
func TestRunWithReading(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := cli(t, 5*time.Minute, "run", "--profile", "nip29", "--reading", "nip29-edit-metadata=replace", "--focus", "base/edit/*", "--report-dir", dir)
	if r.code != 0 {
		t.Fatalf("run --reading: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Plans []struct{ Target string } `json:"plans"`
		Cases []struct {
			ID    string   `json:"id"`
			Notes []string `json:"notes"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Plans) != 1 || !strings.Contains(res.Plans[0].Target, "reading=nip29-edit-metadata=replace") {
		t.Errorf("plans: %+v", res.Plans)
	}
	noted := false
	for _, c := range res.Cases {
		noted = noted || (c.ID == "base/edit/2" && slices.Contains(c.Notes, "reading: nip29-edit-metadata=replace"))
	}
	if !noted {
		t.Error("base/edit/2 does not note reading: nip29-edit-metadata=replace")
	}
}
