package reports

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nipcl/nipcl-conform/clause"
)

// KnownCase is one case of a catalogue, as VerifyJSON checks results
// against it.
type KnownCase struct {
	Level   clause.Level
	Profile string // "nip29" for baseline cases (they run in every profile)
}

// KnownCatalogue is the verifying binary's own catalogue: when a results
// file names its fingerprint, every case of the file must be one of its
// cases, at its level.
type KnownCatalogue struct {
	Fingerprint string
	Version     string // the verifying build, for messages
	Cases       map[string]KnownCase
	Specs       []SpecRevision
}

// Claim is what one plan of a results file shows: which relay, checked in
// which profile against which spec revisions, with what outcome.
type Claim struct {
	Plan    string
	Profile string
	Target  string
	URL     string
	Relay   *RelayIdentity
	Specs   []SpecRevision
	Cases   int
	// CatalogueCases is how many cases of the profile the verifying
	// binary's catalogue has (0 when the file names another catalogue).
	CatalogueCases int
	MustPassed     int
	MustApplicable int
	// Excused is the MUST cases failing, timed out or blocked that a
	// --baseline marked as expected.
	Excused int
	Verdict string
}

// Verification is the result of checking a results file.
type Verification struct {
	Tool, Version, Commit string
	Modified              bool
	Catalogue             string
	// CatalogueChecked: the file names the verifying binary's catalogue,
	// and its case IDs and levels were checked against it.
	CatalogueChecked bool
	RunID            string
	Claims           []Claim
	Problems         []string // inconsistencies: the file is not a valid claim
	Notes            []string // what a reader should know, not wrong
}

// OK reports whether the file is internally consistent.
func (v *Verification) OK() bool { return len(v.Problems) == 0 }

// VerifyJSON checks a results.json document: per-outcome counts recomputed
// from the cases match the stored ones, the digest matches the content,
// the harness version, commit, catalogue fingerprint and spec revisions are
// present, every case belongs to a plan once and has a known outcome, and —
// when known names the same catalogue — every case ID exists in it at the
// level the file states. The error is for a document that is not a results
// file at all.
func VerifyJSON(data []byte, known *KnownCatalogue) (*Verification, error) {
	r, err := parseJSON("input", data)
	if err != nil {
		return nil, err
	}
	v := &Verification{Tool: r.Tool, Version: r.Version, Commit: r.Commit, Modified: r.Modified, Catalogue: r.Catalogue, RunID: r.RunID}
	problem := func(format string, args ...any) { v.Problems = append(v.Problems, fmt.Sprintf(format, args...)) }
	note := func(format string, args ...any) { v.Notes = append(v.Notes, fmt.Sprintf(format, args...)) }

	// Who made it.
	if r.Tool != "nipcl-conform" {
		problem("tool is %q, not \"nipcl-conform\"", r.Tool)
	}
	if r.Version == "" {
		problem("no harness version (\"version\"): written by a nipcl-conform that predates versioned reports, or removed")
	}
	if r.Commit == "" {
		problem("no harness commit (\"commit\"; \"unknown\" when the build recorded none)")
	}
	if r.Catalogue == "" {
		problem("no catalogue fingerprint (\"catalogue\")")
	}
	if len(r.Specs) == 0 {
		problem("no spec revisions (\"specs\"): the file does not say which drafts it was checked against")
	}
	for _, s := range r.Specs {
		if s.Name == "" || s.Revision == "" || s.Profile == "" {
			problem("spec revision %+v lacks a profile, name or revision", s)
		}
	}

	// Integrity.
	switch got, err := Digest(data); {
	case err != nil:
		problem("digest: %v", err)
	case r.Digest == "":
		problem("no digest: the file cannot show it was not edited after it was written")
	case got != r.Digest:
		problem("digest: the content hashes to %s, the file records %s: it was edited after it was written", got, r.Digest)
	}
	if r.StoredCounts == nil {
		problem("no stored counts (\"counts\")")
	} else {
		recount := r.Counts()
		var outs []Outcome
		for o := range r.StoredCounts {
			outs = append(outs, o)
		}
		for _, o := range Outcomes {
			if _, ok := r.StoredCounts[o]; !ok {
				outs = append(outs, o)
			}
		}
		slices.Sort(outs)
		for _, o := range outs {
			if !slices.Contains(Outcomes, o) {
				problem("counts: unknown outcome %q", o)
				continue
			}
			if r.StoredCounts[o] != recount[o] {
				problem("counts: %q is %d, but %d cases have that outcome", o, r.StoredCounts[o], recount[o])
			}
		}
	}
	if r.Finished.Before(r.Started) {
		problem("finished (%s) is before started (%s)", r.Finished.Format("2006-01-02T15:04:05Z07:00"), r.Started.Format("2006-01-02T15:04:05Z07:00"))
	}
	if r.StoppedBy != "" {
		note("the run was stopped by %s before every case ran: its not-run cases say nothing about the relay", r.StoppedBy)
	} else if r.Interrupted != "" {
		note("the run was interrupted: %s", r.Interrupted)
	}

	// Plans and cases.
	if len(r.Plans) == 0 {
		problem("no plans")
	}
	plans := map[string]int{}
	for i, p := range r.Plans {
		if _, dup := plans[p.Name]; dup {
			problem("plan %q listed twice", p.Name)
		}
		plans[p.Name] = i
	}
	checked := known != nil && r.Catalogue != "" && r.Catalogue == known.Fingerprint
	v.CatalogueChecked = checked
	seen := map[string]bool{}
	byPlan := map[string][]CaseResult{}
	for _, c := range r.Cases {
		k := c.Plan + " " + c.ID
		if seen[k] {
			problem("case %s of plan %s listed twice", c.ID, c.Plan)
		}
		seen[k] = true
		if !slices.Contains(Outcomes, c.Outcome) {
			problem("case %s (%s): unknown outcome %q", c.ID, c.Plan, c.Outcome)
		}
		if _, ok := plans[c.Plan]; !ok {
			problem("case %s names plan %q, which the file does not list", c.ID, c.Plan)
		}
		byPlan[c.Plan] = append(byPlan[c.Plan], c)
		if checked {
			kc, ok := known.Cases[c.ID]
			switch {
			case !ok:
				problem("case %s is not in catalogue %s", c.ID, r.Catalogue)
			case kc.Level != c.Level:
				problem("case %s has level %s, catalogue %s says %s", c.ID, c.Level, r.Catalogue, kc.Level)
			}
		}
	}
	if checked {
		for _, s := range known.Specs {
			if !slices.Contains(r.Specs, s) {
				problem("catalogue %s targets %s, which the file's spec revisions do not list", r.Catalogue, s)
			}
		}
	} else if known != nil && r.Catalogue != "" {
		by := "another nipcl-conform build"
		if r.Version != "" {
			by = "nipcl-conform " + r.Version
		}
		note("catalogue %s is not this binary's (%s, nipcl-conform %s): case IDs and levels were not checked; verify with %s to check them", r.Catalogue, known.Fingerprint, known.Version, by)
	}
	if r.Modified {
		note("the harness was built from a checkout with uncommitted changes: its version does not reproduce it")
	} else if (r.Version == "(devel)" || r.Version == "") && (r.Commit == "unknown" || r.Commit == "") {
		note("a development build that recorded no commit: the version does not say which code produced the results")
	}

	for _, p := range r.Plans {
		cases := byPlan[p.Name]
		cl := Claim{Plan: p.Name, Profile: p.Profile, Target: p.Target, URL: p.URL, Relay: p.Relay, Specs: r.SpecsForProfile(p.Profile), Cases: len(cases)}
		cl.MustPassed, cl.MustApplicable = MustTally(cases)
		for _, c := range cases {
			if c.Level == "MUST" && c.Baseline == BaselineExpected && c.Outcome != Pass {
				cl.Excused++
			}
		}
		if checked {
			for _, kc := range known.Cases {
				if kc.Profile == "nip29" || kc.Profile == p.Profile {
					cl.CatalogueCases++
				}
			}
		}
		cl.Verdict = verdict(&Results{Plans: []PlanResult{p}, Cases: cases, StoppedBy: r.StoppedBy, Settings: r.Settings})
		if p.SetupError != "" {
			note("plan %s: setup failed: %s", p.Name, p.SetupError)
		}
		v.Claims = append(v.Claims, cl)
	}
	return v, nil
}

// Write prints the verification for people: consistent or not (and why),
// then what the file claims.
func (v *Verification) Write(w io.Writer, name string) {
	var b strings.Builder
	if v.OK() {
		fmt.Fprintf(&b, "%s: consistent\n", name)
	} else {
		fmt.Fprintf(&b, "%s: NOT consistent (%d problems):\n", name, len(v.Problems))
		for _, p := range v.Problems {
			fmt.Fprintf(&b, "  - %s\n", p)
		}
		b.WriteString("\nWhat the file claims (not to be relied on):\n")
	}
	commit := orUnknown(v.Commit)
	if v.Modified {
		commit += " (modified)"
	}
	fmt.Fprintf(&b, "harness    %s %s, commit %s\n", orUnknown(v.Tool), orUnknown(v.Version), commit)
	cat := orUnknown(v.Catalogue)
	if v.CatalogueChecked {
		cat += " (this binary's catalogue: case IDs and levels checked)"
	}
	fmt.Fprintf(&b, "catalogue  %s\n", cat)
	fmt.Fprintf(&b, "run        %s\n", orUnknown(v.RunID))
	for _, c := range v.Claims {
		fmt.Fprintf(&b, "\nplan %s: profile %s\n", c.Plan, orUnknown(c.Profile))
		target := c.Target
		if c.URL != "" && !strings.Contains(target, c.URL) {
			target += " " + c.URL
		}
		fmt.Fprintf(&b, "  target   %s\n", target)
		if s := c.Relay.String(); s != "" {
			fmt.Fprintf(&b, "  relay    %s (NIP-11)\n", s)
		}
		for i, s := range c.Specs {
			head := "  against  "
			if i > 0 {
				head = "           "
			}
			fmt.Fprintf(&b, "%s%s\n", head, s)
		}
		ran := fmt.Sprintf("%d cases", c.Cases)
		if c.CatalogueCases > 0 {
			ran = fmt.Sprintf("%d of the catalogue's %d cases for this profile", c.Cases, c.CatalogueCases)
		}
		fmt.Fprintf(&b, "  ran      %s\n", ran)
		fmt.Fprintf(&b, "  MUST     %d/%d passed (of the MUST cases not skipped or unsupported)\n", c.MustPassed, c.MustApplicable)
		if c.Excused > 0 {
			fmt.Fprintf(&b, "           %d not passing but marked expected by --baseline\n", c.Excused)
		}
		fmt.Fprintf(&b, "  verdict  %s\n", c.Verdict)
	}
	if len(v.Notes) > 0 {
		b.WriteString("\nnotes:\n")
		for _, n := range v.Notes {
			fmt.Fprintf(&b, "  - %s\n", n)
		}
	}
	_, _ = io.WriteString(w, b.String())
}

func orUnknown(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
