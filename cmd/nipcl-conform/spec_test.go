package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/spec"
)

const specFixture = "../../spec/testdata/widgets.md"

func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSpecCheckExitCodes(t *testing.T) {
	// The fixture matches no profile: every MUST sentence lacks a clause.
	code, out, errs := runDispatch(t, "spec", "check", specFixture)
	if code != 1 || !strings.Contains(out, "## Sentences with no clause") || !strings.Contains(errs, "no profile") || !strings.Contains(errs, "have no clause") {
		t.Errorf("fixture: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	dir := t.TempDir()
	mayOnly := writeFile(t, dir, "may.md", "# Notes\n\n## Rules\n\nThe relay MAY keep notes. A note is text.\n")
	// Every labels clause is stale in this draft: the MUST ones fail the
	// check, unless the draft is an older revision (--allow-stale).
	if code, out, errs := runDispatch(t, "spec", "check", mayOnly, "--profile", "labels"); code != 1 || !strings.Contains(out, "Profile: labels (--profile)") || !strings.Contains(errs, "clause(s) are stale") {
		t.Errorf("stale MUST clauses: exit %d\n%.300s\n%s", code, out, errs)
	}
	if code, out, errs := runDispatch(t, "spec", "check", mayOnly, "--profile", "labels", "--allow-stale"); code != 0 || !strings.Contains(out, "## Clauses not yet anchored") || strings.Contains(out, "Stale clauses") {
		t.Errorf("--allow-stale: exit %d\n%.300s\n%s", code, out, errs)
	}
	for _, args := range [][]string{
		{"spec", "check"},
		{"spec", "check", filepath.Join(dir, "missing.md")},
		{"spec", "check", mayOnly, "--format", "pdf"},
		{"spec", "check", mayOnly, "--profile", "nip99"},
		{"spec", "check", mayOnly, mayOnly},
		{"spec", "diff", mayOnly},
		{"spec", "annotate", mayOnly, "--results", filepath.Join(dir, "missing.json")},
		{"spec", "annotate", mayOnly},
		{"spec", "annotate", mayOnly, "--results", writeFile(t, dir, "empty/results.json", "{}")},
		{"spec", "bogus"},
	} {
		if code, _, _ := runDispatch(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestSpecRefusesWhatIsNotADraft: each kind of wrong file is refused by
// every spec tool with exit 2 and one line naming the file and what it is.
func TestSpecRefusesWhatIsNotADraft(t *testing.T) {
	t.Parallel() // its own CLI processes and relays: it mostly waits on them
	dir := t.TempDir()
	utf16 := []byte{0xff, 0xfe}
	for _, r := range "# Title\n\nThe relay MUST answer.\n" {
		utf16 = append(utf16, byte(r), 0)
	}
	bin := make([]byte, 4096)
	for i := range bin {
		bin[i] = byte(i * 7)
	}
	big := make([]byte, spec.MaxDraftSize+1)
	for i := range big {
		big[i] = 'a'
		if i%80 == 79 {
			big[i] = '\n'
		}
	}
	good := writeFile(t, dir, "good.md", "# Notes\n\n## Rules\n\nThe relay MAY keep notes.\n")
	for _, c := range []struct {
		name string
		body []byte
		want string
	}{
		{"empty.md", nil, "empty"},
		{"blank.md", []byte(" \n\t\n\n"), "white space"},
		{"utf16.md", utf16, "UTF-16"},
		{"utf16-nobom.md", utf16[2:], "UTF-16"},
		{"binary.bin", bin, "binary"},
		{"latin1.md", []byte("# Titre\n\nLe relais doit r\xe9pondre.\n"), "not UTF-8"},
		{"results.json", []byte(`{"tool": "nipcl-conform", "cases": []}`), "JSON"},
		{"big.md", big, "over the limit"},
		{"headings.md", []byte("# One\n\n## Two\n"), "no sentence"},
	} {
		p := writeFile(t, dir, c.name, string(c.body))
		for _, args := range [][]string{
			{"spec", "check", p},
			{"spec", "diff", good, p},
			{"spec", "diff", p, good},
			{"spec", "annotate", p, "--results", "x=" + p},
		} {
			code, out, errs := runDispatch(t, args...)
			lines := strings.Split(strings.TrimSpace(errs), "\n")
			if code != 2 || out != "" || len(lines) != 1 || !strings.Contains(errs, c.name) || !strings.Contains(errs, c.want) {
				t.Errorf("%s %v: exit %d, stdout %.80q, stderr %q; want exit 2 and one line saying %q", c.name, args[1], code, out, errs, c.want)
			}
		}
	}
	if code, out, _ := runDispatch(t, "help", "spec"); code != 0 || !strings.Contains(out, "spec annotate") {
		t.Errorf("help spec: exit %d\n%s", code, out)
	}
}

func TestSpecCheckFormats(t *testing.T) {
	dir := t.TempDir()
	jsonOut := filepath.Join(dir, "check.json")
	if code, out, errs := runDispatch(t, "spec", "check", "--format", "json", "--out", jsonOut, specFixture); code != 1 || out != "" {
		t.Fatalf("json --out: exit %d, stdout %q, stderr %s", code, out, errs)
	}
	b, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	var r spec.CheckReport
	if err := json.Unmarshal(b, &r); err != nil || r.Draft != "widgets.md" || r.Coverage.Total == 0 {
		t.Errorf("json report: %v %+v", err, r.Coverage)
	}
	code, out, _ := runDispatch(t, "spec", "check", specFixture, "--format", "html")
	if code != 1 || !strings.HasPrefix(out, "<!doctype html>") {
		t.Errorf("html: exit %d, %.80q", code, out)
	}
}

func TestSpecDiffAndAnnotate(t *testing.T) {
	src, err := os.ReadFile(specFixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	nw := strings.Replace(string(src), "within five seconds", "within ten seconds", 1)
	nw = strings.Replace(nw, "The relay SHOULD answer", "The relay MUST answer", 1)
	newPath := writeFile(t, dir, "new.md", nw)
	code, out, errs := runDispatch(t, "spec", "diff", specFixture, newPath)
	if code != 1 || !strings.Contains(out, "## Summary") || !strings.Contains(out, "Needs attention: yes") || !strings.Contains(out, "1 level changes") || !strings.Contains(out, "SHOULD → MUST") || !strings.Contains(out, "within ten seconds") {
		t.Errorf("diff: exit %d\n%s\n%s", code, out, errs)
	}

	res := reports.Results{Tool: "nipcl-conform", Cases: []reports.CaseResult{
		{ID: "identity/tags/1", Outcome: reports.Pass},
		{ID: "identity/labels/9", Outcome: reports.Fail, Reading: "cleared by one empty tag"},
	}}
	b, _ := json.Marshal(res)
	a := writeFile(t, dir, "a/results.json", string(b))
	page := filepath.Join(dir, "page.html")
	code, out, errs = runDispatch(t, "spec", "annotate", specFixture, "--results", a, "--results", "other="+a, "--out", page)
	if code != 0 || out != "" {
		t.Fatalf("annotate: exit %d\n%s\n%s", code, out, errs)
	}
	html, _ := os.ReadFile(page)
	if !strings.Contains(string(html), "<!doctype html>") || !strings.Contains(string(html), "Implementations: a, other.") {
		t.Errorf("annotated page: %.300s", html)
	}
	if code, _, errs := runDispatch(t, "spec", "annotate", specFixture, "--results", a, "--results", a); code != 2 {
		t.Errorf("two runs with one name: exit %d (%s)", code, errs)
	}
	// The same draft twice: nothing changed, exit 0, and JSON lists no
	// change as an empty list.
	code, out, errs = runDispatch(t, "spec", "diff", specFixture, specFixture, "--format", "json")
	if code != 0 || !strings.Contains(out, `"changes": []`) || !strings.Contains(out, `"needs_attention": false`) {
		t.Errorf("diff of a draft with itself: exit %d\n%.400s\n%s", code, out, errs)
	}
}

// TestSpecOnBundledDrafts runs the acceptance checks on the real drafts
// (../shared/spec beside the repository, or $NIPCL_SPEC_DIR).
func TestSpecOnBundledDrafts(t *testing.T) {
	dir := spec.SpecDir()
	if dir == "" {
		t.Skip("drafts not found: set NIPCL_SPEC_DIR or put shared/spec beside the repository")
	}
	for _, name := range []string{"nip-cl-identity.md", "nip-cl-labels.md"} {
		code, out, errs := runDispatch(t, "spec", "check", filepath.Join(dir, name))
		if code != 0 || !strings.Contains(out, "Stale clauses: 0") {
			t.Errorf("check %s: exit %d\n%.600s\n%s", name, code, out, errs)
		}
	}
	code, out, _ := runDispatch(t, "spec", "check", filepath.Join(dir, "nip-cl-identity-r1.md"), "--profile", "identity")
	if code != 1 || strings.Contains(out, "Stale clauses: 0") || !strings.Contains(out, "identity/system-channels.1 ") {
		t.Errorf("check r1: exit %d\n%.600s", code, out)
	}
	code, out, _ = runDispatch(t, "spec", "diff", filepath.Join(dir, "nip-cl-identity-r1.md"), filepath.Join(dir, "nip-cl-identity.md"))
	if code != 1 || !strings.Contains(out, "Sections added: Choosing one channel; System channels") || !strings.Contains(out, "identity/labels.4") {
		t.Errorf("diff r1 → current: exit %d\n%.800s", code, out)
	}
}

// TestSpecNIP29Repros: the three edits of issue 39 to the bundled NIP-29
// (moderation from any member, the subgroup lead-in's parent tag renamed,
// an item label changed) each give the change, the clauses it makes stale
// and exit 1 from diff; check on the first fails on its stale MUST
// clauses unless --allow-stale; and check on NIP-29 itself counts the
// client-mode cases.
func TestSpecNIP29Repros(t *testing.T) {
	const nip29 = "../../spec/testdata/nips/29.md"
	src, err := os.ReadFile(nip29)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		find, repl string
		stale      []string
	}{
		{"or by group admins -- and relays should reject them if they don't come from an authorized admin", "or by any group member -- and relays should accept them from any member",
			[]string{"nip29/create.3", "nip29/moderation.1", "nip29/permissions.1"}},
		{"whose metadata carries a `parent` tag pointing", "whose metadata carries an `up` tag pointing", []string{"nip29/clients.8", "nip29/subgroups.2"}},
		{"- *group roles* (`kind:39003`) (optional)", "- *group roles* (`kind:39003`)", []string{"nip29/state-events.9"}},
	} {
		if !strings.Contains(string(src), c.find) {
			t.Fatalf("29.md lacks %q", c.find)
		}
		p := writeFile(t, dir, "edited.md", strings.Replace(string(src), c.find, c.repl, 1))
		code, out, errs := runDispatch(t, "spec", "diff", nip29, p)
		if code != 1 || !strings.Contains(out, "**reworded**") || !strings.Contains(out, "Needs attention: yes") || !strings.Contains(errs, "needs attention") {
			t.Errorf("%q: exit %d\n%s\n%s", c.repl, code, out, errs)
		}
		for _, id := range c.stale {
			if !strings.Contains(out, "made stale: "+id) && !strings.Contains(out, ", "+id) {
				t.Errorf("%q: %s not named stale\n%s", c.repl, id, out)
			}
		}
	}
	p := writeFile(t, dir, "d1.md", strings.Replace(string(src), "or by group admins -- and relays should reject them if they don't come from an authorized admin", "or by any group member -- and relays should accept them from any member", 1))
	if code, out, errs := runDispatch(t, "spec", "check", p); code != 1 || !strings.Contains(errs, "clause(s) are stale") || !strings.Contains(out, "nip29/permissions.1 [MUST]") {
		t.Errorf("check after the role-based access edit: exit %d\n%.500s\n%s", code, out, errs)
	}
	if code, out, errs := runDispatch(t, "spec", "check", p, "--allow-stale"); code != 0 || !strings.Contains(out, "Clauses not yet anchored") {
		t.Errorf("check --allow-stale: exit %d\n%.500s\n%s", code, out, errs)
	}
	code, out, errs := runDispatch(t, "spec", "check", nip29)
	if code != 0 || !strings.Contains(out, "| MUST NOT | 1 | 1 | 1 |") || !strings.Contains(out, "client/nip29/subgroup-membership-not-inherited") || !strings.Contains(out, "not testable: ") {
		t.Errorf("check 29.md: exit %d\n%.1500s\n%s", code, out, errs)
	}
}

// TestSpecCheckListsLevelReadings: spec check on NIP-29 names every case
// judged at a level the text gives without a keyword (its reading starts
// with "Level:"), with its level, clause and reading, in the json and
// markdown outputs; the briefed readings are among them.
func TestSpecCheckListsLevelReadings(t *testing.T) {
	const nip29 = "../../spec/testdata/nips/29.md"
	out := filepath.Join(t.TempDir(), "check.json")
	if code, _, errs := runDispatch(t, "spec", "check", "--format", "json", "--out", out, nip29); code > 1 {
		t.Fatalf("spec check: exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r spec.CheckReport
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	got := map[string]spec.LevelReading{}
	for _, l := range r.LevelReadings {
		if !strings.HasPrefix(l.Reading, "Level:") || l.Level == "" || len(l.Clauses) == 0 {
			t.Errorf("level reading of %s lacks a level, a clause or its Level: text: %+v", l.Case, l)
		}
		got[l.Case] = l
	}
	for id, cl := range map[string]string{
		"base/restricted/1": "nip29/restricted.1", "base/reads/7": "nip29/read-access.1", "base/reads/1": "nip29/read-access.3",
		"base/join/3": "nip29/join.3", "base/admins/1": "nip29/admins.1", "base/pins/2": "nip29/pins.2",
		"base/subgroups/11": "nip29/subgroups.11", "base/subgroups/12": "nip29/subgroups.13",
	} {
		if l, ok := got[id]; !ok || !slices.Contains(l.Clauses, cl) {
			t.Errorf("spec check does not list %s's level reading on %s: %+v", id, cl, l)
		}
	}
	_, md, _ := runDispatch(t, "spec", "check", nip29)
	if !strings.Contains(md, "## Level readings (") || !strings.Contains(md, "- base/admins/1 — **MUST** — nip29/admins.1 — Level:") {
		t.Errorf("the markdown report has no level readings section naming base/admins/1")
	}
}
