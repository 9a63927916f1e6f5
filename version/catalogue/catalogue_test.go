package catalogue

import (
	"slices"
	"strings"
	"testing"
)

func TestCurrentIsComplete(t *testing.T) {
	cur := Current()
	if len(cur) == 0 {
		t.Fatal("empty catalogue")
	}
	for _, e := range cur {
		if e.ID == "" || e.Level == "" || e.Profile == "" || e.Revision == "" {
			t.Errorf("incomplete entry %+v", e)
		}
		if strings.ContainsAny(e.ID+e.Level+e.Profile+e.Source+e.Revision+strings.Join(e.Clauses, ""), "\t\n,") {
			t.Errorf("entry %s has a separator in a field", e.ID)
		}
	}
	if len(Fingerprint()) != 12 {
		t.Errorf("fingerprint %q", Fingerprint())
	}
}

func TestRenderParseRoundTrip(t *testing.T) {
	cur := Current()
	data := Render(cur, []string{"labels/zzz/1"})
	got, retired, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if d := Drift(cur, got, nil); len(d) > 0 {
		t.Errorf("round trip drifts: %v", d)
	}
	if !slices.Equal(retired, []string{"labels/zzz/1"}) {
		t.Errorf("retired %v", retired)
	}
	if FingerprintOf(got) != Fingerprint() {
		t.Error("fingerprint of the parsed list differs")
	}
	if err := Check(data, cur); err != nil {
		t.Errorf("Check of a fresh rendering: %v", err)
	}
}

// TestCheckCatchesALevelChange is the acceptance test of the golden list:
// a case whose level changes without the list being regenerated fails
// Check, which names the case, the change and the regeneration command.
func TestCheckCatchesALevelChange(t *testing.T) {
	golden := Render(Current(), nil)
	changed := Current()
	i := slices.IndexFunc(changed, func(e Entry) bool { return e.Level == "MUST" })
	if i < 0 {
		t.Fatal("no MUST case")
	}
	changed[i].Level = "SHOULD"
	err := Check(golden, changed)
	if err == nil {
		t.Fatal("Check accepted a level change")
	}
	for _, want := range []string{changed[i].ID + ": level MUST -> SHOULD", RegenerateCommand, "CHANGELOG.md", "- " + changed[i].ID + "\tMUST", "+ " + changed[i].ID + "\tSHOULD"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if FingerprintOf(changed) == Fingerprint() {
		t.Error("a level change keeps the catalogue fingerprint")
	}
}

func TestCheckCatchesRenamesClausesAndReuse(t *testing.T) {
	cur := Current()
	golden := Render(cur, []string{"labels/retired/1"})

	renamed := Current()
	old := renamed[0].ID
	renamed[0].ID = old + "x"
	err := Check(golden, renamed)
	if err == nil || !strings.Contains(err.Error(), old+": removed") || !strings.Contains(err.Error(), old+"x: added") {
		t.Errorf("rename: %v", err)
	}

	reclaused := Current()
	reclaused[1].Clauses = append(reclaused[1].Clauses, "labels/snapshot.99")
	if err := Check(golden, reclaused); err == nil || !strings.Contains(err.Error(), reclaused[1].ID+": clauses") {
		t.Errorf("clause change: %v", err)
	}

	reused := append(Current(), Entry{ID: "labels/retired/1", Level: "MUST", Profile: "labels", Source: "draft", Revision: "r"})
	if err := Check(golden, reused); err == nil || !strings.Contains(err.Error(), "never reused") {
		t.Errorf("reuse of a retired ID: %v", err)
	}
	if _, err := Update(golden, reused); err == nil {
		t.Error("Update accepted a retired ID")
	}
}

func TestUpdateRetiresRemovedIDs(t *testing.T) {
	cur := Current()
	old := Render(cur, nil)
	fewer := cur[1:]
	data, err := Update(old, fewer)
	if err != nil {
		t.Fatal(err)
	}
	_, retired, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(retired, []string{cur[0].ID}) {
		t.Errorf("retired %v, want [%s]", retired, cur[0].ID)
	}
	if err := Check(data, fewer); err != nil {
		t.Errorf("Check after Update: %v", err)
	}
	// Updating again keeps the retired ID.
	again, err := Update(data, fewer)
	if err != nil || string(again) != string(data) {
		t.Errorf("second Update changed the list (%v)", err)
	}
}

func TestParseRejectsMalformedLines(t *testing.T) {
	if _, _, err := Parse([]byte("# header\nlabels/x/1\tMUST\n")); err == nil {
		t.Error("short line accepted")
	}
}
