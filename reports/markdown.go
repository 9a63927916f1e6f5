package reports

import (
	"fmt"
	"io"
	"slices"
	"strings"
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
		if p.Cleanup != nil && len(p.Cleanup.Failed) > 0 {
			fmt.Fprintf(&b, "\n**Safe mode (%s): %d channels could not be deleted:** %s\n", p.Name, len(p.Cleanup.Failed), mdEscape(strings.Join(p.Cleanup.Failed, "; ")))
		}
	}
	b.WriteString("\n| outcome | cases |\n|---|---|\n")
	for _, o := range Outcomes {
		fmt.Fprintf(&b, "| %s | %d |\n", o, counts[o])
	}
	if inc := r.Incompatibilities(); len(inc) > 0 {
		fmt.Fprintf(&b, "\n### Incompatible (%d preconditions not met; the cases they block say nothing about conformance)\n\n| plan | precondition | blocked cases | what the harness needs, how to adapt, what it saw |\n|---|---|---|---|\n", len(inc))
		for _, i := range inc {
			fmt.Fprintf(&b, "| %s | `%s` | %d | %s |\n", i.Plan, i.Precondition, len(i.Cases), mdEscape(firstLine(i.Message)))
		}
	}
	var failed []CaseResult
	for _, c := range r.Cases {
		if c.Outcome == Fail || c.Outcome == Timeout || c.Outcome == HarnessError {
			failed = append(failed, c)
		}
	}
	if len(failed) > 0 {
		b.WriteString("\n### Not passing\n\n| case | level | source | section | outcome | message |\n|---|---|---|---|---|---|\n")
		for _, c := range failed {
			fmt.Fprintf(&b, "| `%s` (%s) | %s | %s | %s | %s | %s |\n", c.ID, c.Plan, c.Level, mdEscape(c.Ref), c.Section, c.Outcome, mdEscape(firstLine(c.Message)))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func verdict(r *Results) string {
	switch r.ExitCode(false) {
	case ExitOK:
		return "conforms (every MUST case passed)"
	case ExitFailed:
		return "does not conform"
	case ExitBlocked:
		return "incomplete: no MUST case failed, but the target does not meet preconditions some MUST cases need"
	default:
		return "could not complete (setup or harness error)"
	}
}

func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
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
