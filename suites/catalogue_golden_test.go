package suites_test

import (
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/version/catalogue"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/catalogue.golden from the current cases")

const goldenPath = "testdata/catalogue.golden"

// TestGoldenCatalogue pins the case catalogue (ID, level, profile, source,
// spec revision, clauses) to the checked-in list testdata/catalogue.golden:
// no case changes its ID, level or meaning without the list being
// regenerated (and a CHANGELOG.md entry; CONTRIBUTING.md, "Case
// stability"). Regenerate with
//
//	go test ./suites -run TestGoldenCatalogue -update
//
// or NIPCL_UPDATE_GOLDEN=1 (which also works under go test ./...).
func TestGoldenCatalogue(t *testing.T) {
	cur := catalogue.Current()
	old, err := os.ReadFile(goldenPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if *updateGolden || os.Getenv("NIPCL_UPDATE_GOLDEN") == "1" {
		data, err := catalogue.Update(old, cur)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(goldenPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenPath, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d cases, catalogue fingerprint %s", goldenPath, len(cur), catalogue.Fingerprint())
		return
	}
	if old == nil {
		t.Fatalf("%s is missing; generate it: %s", goldenPath, catalogue.RegenerateCommand)
	}
	if err := catalogue.Check(old, cur); err != nil {
		t.Fatalf("%s: %v", goldenPath, err)
	}
	// The fingerprint reports carry is that of the checked-in list.
	entries, _, err := catalogue.Parse(old)
	if err != nil {
		t.Fatal(err)
	}
	if got := catalogue.FingerprintOf(entries); got != catalogue.Fingerprint() {
		t.Errorf("fingerprint of %s is %s, the build's is %s", goldenPath, got, catalogue.Fingerprint())
	}
}

// TestGoldenCatalogueCatchesALevelChange: a case whose level changed
// without the golden list being regenerated fails the comparison (checked
// on a copy of the current cases against the checked-in list).
func TestGoldenCatalogueCatchesALevelChange(t *testing.T) {
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Skipf("%s: %v (TestGoldenCatalogue reports it)", goldenPath, err)
	}
	entries, _, err := catalogue.Parse(golden)
	if err != nil || len(entries) == 0 {
		t.Fatalf("%s: %v", goldenPath, err)
	}
	changed := make([]catalogue.Entry, len(entries))
	copy(changed, entries)
	i := len(changed) / 2
	want := "SHOULD"
	if changed[i].Level == want {
		want = "MUST"
	}
	was := changed[i].Level
	changed[i].Level = want
	err = catalogue.Check(golden, changed)
	if err == nil {
		t.Fatalf("changing %s from %s to %s went unnoticed", changed[i].ID, was, want)
	}
	if !strings.Contains(err.Error(), changed[i].ID+": level "+was+" -> "+want) || !strings.Contains(err.Error(), catalogue.RegenerateCommand) {
		t.Errorf("the drift report does not name the change and the regeneration command:\n%v", err)
	}
}
