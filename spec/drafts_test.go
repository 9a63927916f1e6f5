package spec

import (
	"slices"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
)

// The tests in this file read the bundled drafts (see bundled); they skip
// when the drafts are absent.

// TestCheckBundledDrafts: each draft is recognised by its title and every
// clause of its profile finds its sentence.
func TestCheckBundledDrafts(t *testing.T) {
	cat := NewCatalog(nil)
	for _, p := range clause.DraftProfiles {
		d := bundled(t, clause.ProfileDoc(p))
		got, how := cat.DetectProfile(d)
		if got != p {
			t.Errorf("%s: profile %q (%s), want %s", d.Name, got, how, p)
		}
		r := Check(d, cat, got, how)
		if len(r.Stale) != 0 {
			t.Errorf("%s: %d stale clauses, first %s", d.Name, len(r.Stale), r.Stale[0].Clause)
		}
		if r.Coverage.Total < 50 || r.Coverage.Covered*2 < r.Coverage.Total {
			t.Errorf("%s: coverage %+v", d.Name, r.Coverage)
		}
	}
}

// TestCheckOlderIdentityRevision: r1 predates system channels, so the
// clauses only the newer revision supports are stale relative to it, and
// clauses on sentences r1 shares are not.
func TestCheckOlderIdentityRevision(t *testing.T) {
	d := bundled(t, "nip-cl-identity-r1.md")
	cat := NewCatalog(nil)
	if p, how := cat.DetectProfile(d); p != "identity" {
		t.Errorf("r1: profile %q (%s)", p, how)
	}
	r := Check(d, cat, "identity", "--profile")
	stale := map[string]bool{}
	for _, s := range r.Stale {
		stale[s.Clause] = true
	}
	for _, id := range []string{"identity/system-channels.1", "identity/reads-leave-out.1", "identity/notices.1", "identity/asking-for-system.1", "identity/labels.4", "identity/older-events.2"} {
		if !stale[id] {
			t.Errorf("%s is not stale relative to r1", id)
		}
	}
	for _, id := range []string{"identity/trust.1", "identity/labels.3", "identity/match-before-limit.1", "identity/creator.2"} {
		if stale[id] {
			t.Errorf("%s is stale relative to r1, but r1 has its sentence", id)
		}
	}
	if r.UncoveredMust() == 0 {
		t.Error("r1's reworded MUST sentence (the 8-label rule without 'distinct') should have no clause")
	}
}

// TestDiffIdentityRevisions: r1 → current finds the system-channel
// sections and the change in how t clears the labels.
func TestDiffIdentityRevisions(t *testing.T) {
	old, nw := bundled(t, "nip-cl-identity-r1.md"), bundled(t, clause.DocIdentity)
	r := Diff(old, nw, NewCatalog(nil), "identity")
	added := strings.Join(r.SectionsAdded, "|")
	for _, h := range []string{"System channels", "Reads that leave system channels out", "Membership notices carry the channel type", "Asking for system channels"} {
		if !strings.Contains(added, h) {
			t.Errorf("sections added %q lack %q", added, h)
		}
	}
	systemAdded := 0
	tClear := false
	for _, c := range r.Changes {
		if c.Kind == Added && c.New.Heading == "System channels" {
			systemAdded++
		}
		if c.Kind == Reworded && slices.Contains(c.Clauses, "identity/labels.4") {
			tClear = true
		}
	}
	if systemAdded < 3 {
		t.Errorf("%d sentences added under System channels", systemAdded)
	}
	if !tClear {
		t.Error("the t-clearing change (identity/labels.4) is not reported as reworded")
	}
	if r.Counts[Removed] > 2 {
		t.Errorf("r1 → current removes %d sentences; the revision only added and reworded", r.Counts[Removed])
	}
}
