package reports

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/nipcl/nipcl-conform/internal/text"
)

// WriteMarkdown renders a short summary suitable for a CI step summary.
func WriteMarkdown(w io.Writer, r *Results) error {
	var b strings.Builder
	counts := r.Counts()
	fmt.Fprintf(&b, "## nipcl-conform: %s\n\n", verdict(r))
	if line := claimLine(r); line != "" {
		b.WriteString(line + "\n\n")
	}
	b.WriteString("| plan | target | profile | relay (NIP-11) | MUST passed |\n|---|---|---|---|---|\n")
	for _, p := range r.Plans {
		t := p.Target
		if p.SetupError != "" {
			t += " — setup failed: " + p.SetupError
		}
		var cases []CaseResult
		for _, c := range r.Cases {
			if c.Plan == p.Name {
				cases = append(cases, c)
			}
		}
		passed, applicable := MustTally(cases)
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d/%d |\n", p.Name, mdEscape(t), p.Profile, mdEscape(relayShort(p.Relay)), passed, applicable)
	}
	for _, p := range r.Plans {
		if len(p.Keys) > 0 {
			fmt.Fprintf(&b, "\n**Keys (%s), as the capability probe saw them before the cases:**\n\n", p.Name)
			for _, k := range p.Keys {
				fmt.Fprintf(&b, "- %s\n", mdEscape(k.String()))
			}
			if len(p.StateEvents) > 0 {
				kinds := make([]string, 0, len(p.StateEvents))
				for k, v := range p.StateEvents {
					kinds = append(kinds, k+": "+v)
				}
				sort.Strings(kinds)
				fmt.Fprintf(&b, "- state events published for a new group: %s\n", strings.Join(kinds, ", "))
			}
		}
	}
	for _, p := range r.Plans {
		if p.Cleanup != nil && len(p.Cleanup.Failed) > 0 {
			fmt.Fprintf(&b, "\n**Safe mode (%s): %d channels could not be deleted:** %s\n", p.Name, len(p.Cleanup.Failed), mdEscape(strings.Join(p.Cleanup.Failed, "; ")))
		}
	}
	b.WriteString("\n| outcome | cases |\n|---|---|\n")
	for _, o := range Outcomes {
		fmt.Fprintf(&b, "| %s | %d |\n", o, counts[o])
	}
	if causes := r.Causes(); len(causes) > 0 {
		fmt.Fprintf(&b, "\n### %s\n\n", causesHeadline(causes))
		b.WriteString("| # | cases | outcome | level | whose rule | what broke (first case, in our words) | learn more |\n|---|---|---|---|---|---|---|\n")
		for i, k := range causes {
			fmt.Fprintf(&b, "| %d | %d: %s | %s | %s | %s | %s | `%s` |\n", i+1, len(k.Cases), mdEscape(caseList(k.Cases, 6)), k.Outcome, k.Level,
				mdEscape(sourceWords(k.Source, k.Ref)), mdEscape(k.Example), k.Explain)
		}
		if ex := causes[0].Excerpt; ex != "" {
			fmt.Fprintf(&b, "\nWire excerpt of cause 1 (%s):\n\n```\n%s\n```\n", causes[0].Cases[0], ex)
		}
	}
	var failed []CaseResult
	setup := r.setupFailed()
	for _, c := range r.Cases {
		if setup[c.Plan] {
			continue // the plan's setup error, in the targets table, says why
		}
		if c.Outcome == Fail || c.Outcome == Timeout || c.Outcome == HarnessError {
			failed = append(failed, c)
		}
	}
	if len(failed) > 0 {
		b.WriteString("\n### Not passing\n\n")
		if n := r.KnownFailures(); n > 0 {
			fmt.Fprintf(&b, "New failures first; %d %s marked as known failures.\n\n", n, plural(n, "case a --baseline lists is", "cases a --baseline lists are"))
		}
		b.WriteString("| case | level | source | section | outcome | message |\n|---|---|---|---|---|---|\n")
		for _, c := range NewFirst(failed) {
			outcome := string(c.Outcome)
			if Known(c) {
				outcome += ", " + KnownWord(r)
			}
			ref, section := c.Ref, c.Section
			if cl, ok := Broken(c); ok {
				ref, section = cl.Ref, "breaks "+cl.ID
			}
			fmt.Fprintf(&b, "| `%s` (%s) | %s | %s | %s | %s | %s |\n", c.ID, c.Plan, c.Level, mdEscape(ref), section, outcome, mdEscape(text.FirstLine(c.Message)))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// verdict is the run's headline (Headline).
func verdict(r *Results) string { return Headline(r) }

// mdEscape makes s safe in a Markdown table cell; it never cuts it (a
// message cut before its observed value says nothing).
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	return strings.ReplaceAll(s, "\n", " ")
}

// claimLine names the harness build, catalogue and the spec revisions the
// run's profiles were checked against.
func claimLine(r *Results) string {
	if r.Version == "" && r.Catalogue == "" {
		return ""
	}
	commit := r.Commit
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if r.Modified {
		commit += ", modified"
	}
	line := fmt.Sprintf("nipcl-conform `%s` (commit `%s`), catalogue `%s`", r.Version, commit, r.Catalogue)
	var seen []SpecRevision
	for _, p := range r.Plans {
		for _, s := range r.SpecsForProfile(p.Profile) {
			if !slices.Contains(seen, s) {
				seen = append(seen, s)
			}
		}
	}
	for _, s := range seen {
		line += fmt.Sprintf(" · %s `%s`", s.Name, s.Revision)
		if s.Date != "" {
			line += " (" + s.Date + ")"
		}
	}
	return line
}

// relayShort is a relay's NIP-11 identity for a table cell: software and
// version, name, and the first 12 digits of its self key.
func relayShort(id *RelayIdentity) string {
	if id == nil {
		return ""
	}
	short := *id
	if len(short.Self) > 12 {
		short.Self = short.Self[:12] + "…"
	}
	return short.String()
}

// causesHeadline is the one line a report leads with: how many root causes
// explain how many cases.
func causesHeadline(causes []Cause) string {
	n := 0
	for _, k := range causes {
		n += len(k.Cases)
	}
	if len(causes) == 1 {
		return fmt.Sprintf("1 root cause explains the %d cases that did not pass", n)
	}
	return fmt.Sprintf("%d root causes explain %d cases that did not pass", len(causes), n)
}

// caseList names up to max case IDs, then "+N more".
func caseList(ids []string, max int) string {
	if len(ids) <= max {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:max], ", ") + fmt.Sprintf(" +%d more", len(ids)-max)
}

// sourceWords says whose rule a cause breaks, for a reader: a NIP's text,
// a NIP-CL draft, or the harness's own target contract.
func sourceWords(source, ref string) string {
	switch source {
	case "nip":
		return "NIP text: " + ref
	case "draft":
		return "NIP-CL draft: " + ref
	case "contract":
		return "target contract (a harness precondition): " + ref
	}
	return ref
}
