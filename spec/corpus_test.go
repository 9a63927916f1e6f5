package spec

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
)

// The diff corpus: edits to the bundled NIP-29 (testdata/nips/29.md),
// applied at test time, each with the changes a careful editor lists for
// it, so that the precision and recall of spec diff are a test, not a
// claim.
//
// How the corpus was written: each edit is modelled on a kind of change
// the NIP-29 history and its pull requests made (a rule reworded, a level
// raised, a MUST added, a sentence dropped, a tag renamed, a typo fixed,
// text re-wrapped, a rationale added, a lead-in or an anchored-only
// sentence changed, a section of new rules), written in our own words as
// find/replace pairs on the bundled text; no text of those commits is
// copied. The expected changes were written by hand from the edit alone:
// which sentence changed, and what an editor would call the change. The
// expected stale clauses are the clauses anchored to the edited sentences,
// looked up by hand in clause/anchors.txt.

// corpusEdit replaces Find (which must occur in the text exactly Times
// times, once when 0) by Repl.
type corpusEdit struct {
	Find, Repl string
	Times      int
}

// corpusChange is one expected change: its kind and words of the old and
// new sentence ("" for the side a sentence lacks: an addition has no old
// sentence, a removal no new one).
type corpusChange struct {
	Kind     string
	Old, New string
	// Level, when set, is the expected LevelChange text.
	Level string
}

type corpusEntry struct {
	Name    string
	Edits   []corpusEdit
	Changes []corpusChange
	// Stale: the clauses the edit leaves without their sentence.
	Stale []string
}

func ed(find, repl string) corpusEdit { return corpusEdit{Find: find, Repl: repl} }

func chg(kind, old, new string) corpusChange { return corpusChange{Kind: kind, Old: old, New: new} }

func lvl(change, old, new string) corpusChange {
	return corpusChange{Kind: LevelChanged, Old: old, New: new, Level: change}
}

var diffCorpus = []corpusEntry{
	// The three repros of issue 39.
	{Name: "role-based access: moderation from any member (issue 39 repro 1)",
		Edits:   []corpusEdit{ed("or by group admins -- and relays should reject them if they don't come from an authorized admin", "or by any group member -- and relays should accept them from any member")},
		Changes: []corpusChange{chg(Reworded, "by group admins", "by any group member")},
		Stale:   []string{"nip29/create.3", "nip29/delete.2", "nip29/invites.3", "nip29/moderation.1", "nip29/permissions.1", "nip29/pins.3"}},
	{Name: "subgroup lead-in: parent tag renamed up (issue 39 repro 2)",
		Edits:   []corpusEdit{ed("whose metadata carries a `parent` tag pointing", "whose metadata carries an `up` tag pointing")},
		Changes: []corpusChange{chg(Reworded, "carries a parent tag", "carries an up tag")},
		Stale:   []string{"nip29/clients.8", "nip29/subgroups.2"}},
	{Name: "item label: group roles no longer optional (issue 39 repro 3)",
		Edits:   []corpusEdit{ed("- *group roles* (`kind:39003`) (optional)", "- *group roles* (`kind:39003`)")},
		Changes: []corpusChange{chg(Reworded, "group roles (kind:39003) (optional)", "group roles (kind:39003)")},
		Stale:   []string{"nip29/state-events.9"}},

	// Level changes.
	{Name: "SHOULD raised to MUST",
		Edits:   []corpusEdit{ed("These roles SHOULD have a correspondence", "These roles MUST have a correspondence")},
		Changes: []corpusChange{lvl("SHOULD → MUST", "roles SHOULD have", "roles MUST have")},
		Stale:   []string{"nip29/roles.1"}},
	{Name: "MUST NOT turned into MUST",
		Edits:   []corpusEdit{ed("but clients MUST NOT assume it:", "but clients MUST assume it:")},
		Changes: []corpusChange{lvl("MUST NOT → MUST", "clients MUST NOT assume", "clients MUST assume")},
		Stale:   []string{"nip29/clients.7"}},
	{Name: "lower-case may made must",
		Edits:   []corpusEdit{ed("Clients may display these events at the top", "Clients must display these events at the top")},
		Changes: []corpusChange{lvl("RULE (may) → RULE (must)", "Clients may display", "Clients must display")},
		Stale:   []string{"nip29/clients.15"}},
	{Name: "capital MUST written in lower case",
		Edits:   []corpusEdit{ed("Relays MUST set the `sub` property", "Relays must set the `sub` property")},
		Changes: []corpusChange{lvl("MUST → RULE", "Relays MUST set the sub", "Relays must set the sub")}},
	// (No clause goes stale: a fingerprint folds case, so livekit.2
	// still finds its sentence; the level change is what the gate
	// reports.)
	{Name: "lower-case should raised to a capital MUST",
		Edits:   []corpusEdit{ed("Relays should enforce access control at the LiveKit JWT", "Relays MUST enforce access control at the LiveKit JWT")},
		Changes: []corpusChange{lvl("RULE → MUST", "Relays should enforce", "Relays MUST enforce")},
		Stale:   []string{"nip29/livekit.3"}},
	{Name: "lead-in rule made a requirement",
		Edits:   []corpusEdit{ed("An invite code may be appended to the group identifier:", "An invite code must be appended to the group identifier:")},
		Changes: []corpusChange{lvl("RULE (may) → RULE (must)", "invite code may be appended", "invite code must be appended")},
		Stale:   []string{"nip29/clients.9"}},

	// Rules added and removed.
	{Name: "a new MUST in the subgroup rules",
		Edits:   []corpusEdit{ed("- Absence of the `parent` tag makes the group a root.\n", "- Absence of the `parent` tag makes the group a root.\n- Relays MUST reject a `kind:9002` whose `child` tag names a group that does not exist.\n")},
		Changes: []corpusChange{chg(Added, "", "whose child tag names a group that does not exist")}},
	{Name: "a permission dropped",
		Edits:   []corpusEdit{ed(" The relay may choose to limit the number of pins.", "")},
		Changes: []corpusChange{chg(Removed, "limit the number of pins", "")},
		Stale:   []string{"nip29/pins.4"}},
	{Name: "a subgroup rule dropped",
		Edits:   []corpusEdit{ed("- Absence of the `parent` tag makes the group a root.\n", "")},
		Changes: []corpusChange{chg(Removed, "Absence of the parent tag", "")},
		Stale:   []string{"nip29/subgroups.9"}},
	{Name: "a section of new group states with its defaults",
		Edits: []corpusEdit{ed("### Relay support detection\n", "### Group states\n\nA new group starts in the `active` state unless its creation event says otherwise:\n\n- Relays MUST refuse messages to a group in the `frozen` state.\n- A group in the `archived` state is read-only for everyone, admins included.\n\n### Relay support detection\n")},
		Changes: []corpusChange{
			chg(Added, "", "starts in the active state"),
			chg(Added, "", "refuse messages to a group in the frozen state"),
			chg(Added, "", "archived state is read-only"),
		}},

	// Rewordings.
	{Name: "tag renamed in a metadata item",
		Edits:   []corpusEdit{ed("- `livekit` indicates that a group supports LiveKit-powered media rooms", "- `av` indicates that a group supports LiveKit-powered media rooms")},
		Changes: []corpusChange{chg(Reworded, "livekit indicates", "av indicates")},
		Stale:   []string{"nip29/livekit.5"}},
	{Name: "a number changed",
		Edits:   []corpusEdit{ed("any event in the last 50 events seen", "any event in the last 100 events seen")},
		Changes: []corpusChange{chg(Reworded, "last 50 events", "last 100 events")},
		Stale:   []string{"nip29/timeline.4"}},
	{Name: "a negation turned around",
		Edits:   []corpusEdit{ed("Nothing is inherited across the parent-child link.", "Everything is inherited across the parent-child link.")},
		Changes: []corpusChange{chg(Reworded, "Nothing is inherited", "Everything is inherited")},
		Stale:   []string{"nip29/subgroups.11"}},
	{Name: "a kind number changed in the moderation table",
		Edits:   []corpusEdit{ed("| 9009 | `create-invite` |", "| 9019 | `create-invite` |")},
		Changes: []corpusChange{chg(Reworded, "9009 | create-invite", "9019 | create-invite")},
		Stale:   []string{"nip29/invites.1", "nip29/invites.3", "nip29/moderation.1"}},
	{Name: "an anchored preamble sentence narrowed",
		Edits:   []corpusEdit{ed("a random string of any length that serves", "a random string of at most 64 characters that serves")},
		Changes: []corpusChange{chg(Reworded, "of any length", "at most 64 characters")},
		Stale:   []string{"nip29/group-ids.1"}},
	{Name: "a rule reworded with the same meaning",
		Edits:   []corpusEdit{ed("Relays shouldn't accept these events if they're signed by anyone else.", "Relays shouldn't accept these events when anyone else signed them.")},
		Changes: []corpusChange{chg(Reworded, "if they're signed by anyone else", "when anyone else signed them")},
		Stale:   []string{"nip29/state-events.6"}},
	{Name: "a duplicate-member rule given a new prefix",
		Edits:   []corpusEdit{ed("the event MUST be rejected with `duplicate: ` as the error message prefix", "the event MUST be rejected with `already-member: ` as the error message prefix")},
		Changes: []corpusChange{chg(Reworded, "duplicate:", "already-member:")},
		Stale:   []string{"nip29/join.2"}},

	// A split pairs the old sentence with the half that keeps most of
	// its words (here the tag and its URL); the other half is new.
	{Name: "a rule split in two sentences",
		Edits: []corpusEdit{ed("should be of kind `27235` and contain a tag", "should be of kind `27235`. It should contain a tag")},
		Changes: []corpusChange{
			chg(Reworded, "should be of kind 27235 and contain", "It should contain a tag"),
			chg(Added, "", "should be of kind 27235."),
		},
		Stale: []string{"nip29/clients.13"}},
	{Name: "an anchored rationale reworded",
		Edits:   []corpusEdit{ed("This setup allows for both Discord-style independent AV rooms and text rooms", "This setup allows for both Discord-style separate AV rooms and text rooms")},
		Changes: []corpusChange{chg(Reworded, "independent AV rooms", "separate AV rooms")},
		Stale:   []string{"nip29/livekit.5"}},
	{Name: "an anchored rationale dropped",
		Edits:   []corpusEdit{ed("Forks are not bugs. ", "")},
		Changes: []corpusChange{chg(Removed, "Forks are not bugs.", "")},
		Stale:   []string{"nip29/late-publication.2"}},
	{Name: "a section dropped",
		Edits:   []corpusEdit{ed("### Storing your list of groups\n\nA definition for `kind:10009` was included in [NIP-51](51.md) that allows clients to store the list of groups a user wants to remember being in.\n", "")},
		Changes: []corpusChange{chg(Removed, "A definition for kind:10009", "")},
		Stale:   []string{"nip29/clients.17"}},

	// Typos: reported as such, not as rule changes.
	{Name: "a misspelling in a MUST",
		Edits:   []corpusEdit{ed("if the user has not been added to the group.", "if the user has not been aded to the group.")},
		Changes: []corpusChange{chg(Typo, "been added", "been aded")},
		Stale:   []string{"nip29/invites.2", "nip29/join.1"}},
	{Name: "a misspelling in a lower-case should",
		Edits:   []corpusEdit{ed("Relays should prevent late publication", "Relays should prevent late publicaton")},
		Changes: []corpusChange{chg(Typo, "late publication", "late publicaton")},
		Stale:   []string{"nip29/late-publication.1"}},

	// Nothing normative changes.
	{Name: "rationale added after a rule",
		Edits: []corpusEdit{ed("Relays MUST reject the request if the user has not been added to the group.", "Relays MUST reject the request if the user has not been added to the group. This ensures that a closed group stays closed.")}},
	{Name: "rationale opener added to the AV section",
		Edits: []corpusEdit{ed("Relays should enforce access control at the LiveKit JWT creation time according to the group settings.", "Relays should enforce access control at the LiveKit JWT creation time according to the group settings. This allows relays to revoke access without touching the LiveKit server.")}},
	{Name: "paragraph re-wrapped",
		Edits: []corpusEdit{ed("Any user can send a kind `9021` event to the relay in order to request admission to the group. Relays MUST", "Any user can send a kind `9021` event to the relay in order\nto request admission to the group.\nRelays MUST")}},
	{Name: "bullets and emphasis restyled",
		Edits: []corpusEdit{ed("- *group admins* (`kind:39001`) (optional)", "* _group admins_ (`kind:39001`) (optional)"), ed("- Historical events under", "* Historical events under")}},
	{Name: "table padding changed",
		Edits: []corpusEdit{ed("| 9001 | `remove-user`   | `p` with pubkey hex                    |", "|9001|`remove-user`|`p` with pubkey hex|")}},
	{Name: "whole file with CRLF line ends",
		Edits: []corpusEdit{{Find: "\n", Repl: "\r\n", Times: -1}}},
	{Name: "dashes and quotes from a word processor",
		Edits: []corpusEdit{{Find: " -- ", Repl: " — ", Times: -1}, ed("if they don't come from", "if they don’t come from"), ed(`(called "identity" in`, "(called “identity” in")}},
	{Name: "a typo fixed in an explanatory sentence",
		Edits: []corpusEdit{ed("from being broadcasted to external relays", "from being broadcast to external relays")}},
	{Name: "a rule moved to another section",
		Edits:   []corpusEdit{ed("\n\nClients may display these events at the top of the group view.", ""), ed("## Group referencing\n\n", "## Group referencing\n\nClients may display these events at the top of the group view.\n\n")},
		Changes: []corpusChange{chg(Moved, "Clients may display", "Clients may display")}},
}

// applyCorpus applies an entry's edits to the bundled NIP-29.
func applyCorpus(t *testing.T, src string, e corpusEntry) string {
	t.Helper()
	out := src
	for _, x := range e.Edits {
		n := strings.Count(out, x.Find)
		want := x.Times
		if want == 0 {
			want = 1
		}
		if n == 0 || want > 0 && n != want {
			t.Fatalf("%s: %q occurs %d times in 29.md, want %d", e.Name, x.Find, n, want)
		}
		out = strings.ReplaceAll(out, x.Find, x.Repl)
	}
	return out
}

func (w corpusChange) matches(c Change) bool {
	side := func(want string, s *SentenceRef) bool {
		if want == "" {
			return s == nil || c.Kind == Moved
		}
		return s != nil && strings.Contains(s.Text, want)
	}
	return c.Kind == w.Kind && side(w.Old, c.Old) && side(w.New, c.New) && (w.Level == "" || c.LevelChange == w.Level)
}

func (c Change) String() string {
	o, n := "", ""
	if c.Old != nil {
		o = c.Old.Text
	}
	if c.New != nil {
		n = c.New.Text
	}
	return fmt.Sprintf("%s %s %q → %q", c.Kind, c.LevelChange, o, n)
}

// TestDiffCorpusPrecisionRecall runs spec diff on every corpus entry and
// requires a precision and recall of at least 99 % over the whole corpus,
// the stale clauses exactly as expected, and the gate to ask for
// attention exactly when a normative sentence changed or a clause went
// stale.
func TestDiffCorpusPrecisionRecall(t *testing.T) {
	src := string(mustRead(t, "testdata/nips/29.md"))
	old := Parse("29.md", []byte(src))
	cat := NewCatalog(nil)
	found, falseAlarms, expected, missed := 0, 0, 0, 0
	for _, e := range diffCorpus {
		nw := Parse("29-edited.md", []byte(applyCorpus(t, src, e)))
		r := Diff(old, nw, cat, "nip29")
		used := make([]bool, len(r.Changes))
		for _, w := range e.Changes {
			expected++
			hit := false
			for i, c := range r.Changes {
				if !used[i] && w.matches(c) {
					used[i], hit = true, true
					break
				}
			}
			if !hit {
				missed++
				t.Errorf("%s: missed %s %s %q → %q", e.Name, w.Kind, w.Level, w.Old, w.New)
			}
		}
		for i, c := range r.Changes {
			found++
			if !used[i] {
				falseAlarms++
				t.Errorf("%s: false alarm: %s", e.Name, c)
			}
		}
		if got := r.Gate.StaleClauses; !slices.Equal(got, e.Stale) && !(len(got) == 0 && len(e.Stale) == 0) {
			t.Errorf("%s: stale clauses %v, want %v", e.Name, got, e.Stale)
		}
		wantAttention := len(e.Stale) > 0
		for _, w := range e.Changes {
			if w.Kind != Moved && w.Kind != Typo {
				wantAttention = true
			}
		}
		if r.Gate.NeedsAttention != wantAttention {
			t.Errorf("%s: needs attention %v, want %v", e.Name, r.Gate.NeedsAttention, wantAttention)
		}
		for _, w := range e.Changes {
			if w.Kind == Added && strings.Contains(w.New, "MUST") && len(r.Gate.NewMustWithoutClause) == 0 {
				t.Errorf("%s: the new MUST is not listed as a MUST without a clause", e.Name)
			}
		}
	}
	tp := found - falseAlarms
	precision := float64(tp) / float64(max(found, 1))
	recall := float64(expected-missed) / float64(max(expected, 1))
	t.Logf("corpus: %d entries, %d expected changes, %d reported, %d false alarms, %d missed: precision %.1f %%, recall %.1f %%",
		len(diffCorpus), expected, found, falseAlarms, missed, precision*100, recall*100)
	if precision < 0.99 || recall < 0.99 {
		t.Errorf("precision %.1f %%, recall %.1f %%: want at least 99 %% each", precision*100, recall*100)
	}
}

// TestCorpusEntriesAreDistinct keeps the corpus honest: every entry
// changes the text, and no two entries make the same edit.
func TestCorpusEntriesAreDistinct(t *testing.T) {
	src := string(mustRead(t, "testdata/nips/29.md"))
	seen := map[string]string{}
	for _, e := range diffCorpus {
		out := applyCorpus(t, src, e)
		if out == src {
			t.Errorf("%s: the edits change nothing", e.Name)
		}
		if prev, dup := seen[out]; dup {
			t.Errorf("%s: same text as %s", e.Name, prev)
		}
		seen[out] = e.Name
		for _, id := range e.Stale {
			if _, ok := clause.LookupClause(id); !ok {
				t.Errorf("%s: unknown clause %s", e.Name, id)
			}
		}
	}
}
