package spec

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"slices"
	"strings"
)

// Formats of the check and diff reports.
var Formats = []string{"md", "json", "html"}

// ValidFormat reports whether f is one of Formats.
func ValidFormat(f string) bool { return slices.Contains(Formats, f) }

// WriteCheck renders a check report as md, json or html.
func WriteCheck(w io.Writer, r *CheckReport, format string) error {
	switch format {
	case "json":
		return writeJSON(w, r)
	case "html":
		return writeCheckHTML(w, r)
	case "md", "":
		return writeCheckMD(w, r)
	}
	return fmt.Errorf("unknown format %q (md, json, html)", format)
}

// WriteDiff renders a diff report as md, json or html.
func WriteDiff(w io.Writer, r *DiffReport, format string) error {
	switch format {
	case "json":
		return writeJSON(w, r)
	case "html":
		return writeDiffHTML(w, r)
	case "md", "":
		return writeDiffMD(w, r)
	}
	return fmt.Errorf("unknown format %q (md, json, html)", format)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func pct(n, of int) string {
	if of == 0 {
		return "—"
	}
	return fmt.Sprintf("%d%%", (n*100+of/2)/of)
}

// CoverageLine is the one-line coverage figure of a check report.
func (r *CheckReport) CoverageLine() string {
	must := r.ByLevel["MUST"]
	mustNot := r.ByLevel["MUST NOT"]
	return fmt.Sprintf("%d of %d normative sentences have a clause (%s), %d have cases (%s); MUST/MUST NOT: %d of %d",
		r.Coverage.Covered, r.Coverage.Total, pct(r.Coverage.Covered, r.Coverage.Total),
		r.Coverage.WithCases, pct(r.Coverage.WithCases, r.Coverage.Total),
		must.Covered+mustNot.Covered, must.Total+mustNot.Total)
}

func quote(s string) string { return "“" + s + "”" }

func list(ids []string, max int) string {
	if len(ids) <= max || max <= 0 {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:max], ", ") + fmt.Sprintf(", … (%d in all)", len(ids))
}

func writeCheckMD(w io.Writer, r *CheckReport) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# spec check: %s\n\n", r.Draft)
	if r.Title != "" {
		fmt.Fprintf(&b, "Title: %s  \n", r.Title)
	}
	prof := r.Profile
	if prof == "" {
		prof = "(none)"
	}
	fmt.Fprintf(&b, "Profile: %s (%s)  \n", prof, r.ProfileBy)
	fmt.Fprintf(&b, "Coverage: %s  \n", r.CoverageLine())
	un := r.Uncovered()
	fmt.Fprintf(&b, "Uncovered: %d (MUST/MUST NOT: %d) · %s: %d (MUST/MUST NOT: %d) · Unsure or ambiguous: %d\n\n", len(un), r.UncoveredMust(), r.staleWord(), len(r.Stale), r.StaleMust(), len(r.Unsure))
	b.WriteString("| level | sentences | with clause | with cases | not testable |\n| --- | --- | --- | --- | --- |\n")
	for _, l := range Levels {
		if lc, ok := r.ByLevel[l]; ok {
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", l, lc.Total, lc.Covered, lc.WithCases, lc.NotTestable)
		}
	}
	fmt.Fprintf(&b, "\n## Sentences with no clause (%d)\n\n", len(un))
	if len(un) == 0 {
		b.WriteString("None.\n")
	}
	for _, s := range un {
		fmt.Fprintf(&b, "- %s — **%s** — %s — %s\n", s.Where(), s.Level, quote(s.Text), s.Note)
	}
	fmt.Fprintf(&b, "\n## %s (%d)\n\n", r.staleWord(), len(r.Stale))
	if len(r.Stale) == 0 {
		b.WriteString("None: every clause of the profile finds its sentence.\n")
	} else if r.AllowStale {
		b.WriteString("An older revision (--allow-stale): these clauses derive from sentences written after it.\n\n")
	}
	for _, s := range r.Stale {
		gone := "sentence not in this draft"
		if s.Missing < s.Anchors {
			gone = fmt.Sprintf("%d of its %d sentences not in this draft", s.Missing, s.Anchors)
		}
		fmt.Fprintf(&b, "- %s [%s] %s — %s", s.Clause, s.Level, s.Text, gone)
		if len(s.Cases) > 0 {
			fmt.Fprintf(&b, "; cases %s", list(s.Cases, 6))
		}
		if s.Closest != nil {
			fmt.Fprintf(&b, "; closest sentence %s %s (%.2f)", s.Closest.Where(), quote(s.Closest.Text), s.Similarity)
		}
		b.WriteString("\n")
	}
	cov := 0
	for _, s := range r.Sentences {
		if s.Covered {
			cov++
		}
	}
	fmt.Fprintf(&b, "\n## Covered sentences (%d)\n\n", cov)
	for _, s := range r.Sentences {
		if !s.Covered {
			continue
		}
		fmt.Fprintf(&b, "- %s — **%s** — %s → %s", s.Where(), s.Level, quote(s.Text), strings.Join(s.Clauses, ", "))
		b.WriteString(" → " + casesText(s.Cases, s.NotTestable, 8))
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\n## Unsure or ambiguous sentences (%d)\n\n", len(r.Unsure))
	for _, s := range r.Unsure {
		fmt.Fprintf(&b, "- %s — **%s** — %s — %s\n", s.Where(), s.Level, quote(s.Text), s.Unsure)
	}
	fmt.Fprintf(&b, "\n## Level readings (%d)\n\nCases judged at a level their sentence gives without a keyword, with the reading that says which level and why.\n\n", len(r.LevelReadings))
	for _, l := range r.LevelReadings {
		fmt.Fprintf(&b, "- %s — **%s** — %s — %s\n", l.Case, l.Level, strings.Join(l.Clauses, ", "), l.Reading)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// staleWord names the clauses whose sentence the draft lacks: stale, or,
// in an older revision, not yet anchored.
func (r *CheckReport) staleWord() string {
	if r.AllowStale {
		return "Clauses not yet anchored"
	}
	return "Stale clauses"
}

// casesText is "cases A, B", "not testable: why" or "no case yet".
func casesText(cases []string, notTestable string, max int) string {
	switch {
	case len(cases) > 0:
		return "cases " + list(cases, max)
	case notTestable != "":
		return "not testable: " + notTestable
	}
	return "no case yet"
}

// groupByHeading keeps the order of first appearance.
func groupByHeading(cs []Change) (heads []string, by map[string][]Change) {
	by = map[string][]Change{}
	for _, c := range cs {
		h := c.Heading()
		if _, ok := by[h]; !ok {
			heads = append(heads, h)
		}
		by[h] = append(by[h], c)
	}
	return heads, by
}

// Summary is the one-line count of a diff.
func (r *DiffReport) Summary() string {
	return fmt.Sprintf("%d added, %d removed, %d reworded, %d level changes, %d moved, %d typos",
		r.Counts[Added], r.Counts[Removed], r.Counts[Reworded], r.Counts[LevelChanged], r.Counts[Moved], r.Counts[Typo])
}

// GateLines is the closing summary of a diff: what an editor must look
// at before merging, one line each, and the verdict.
func (r *DiffReport) GateLines() []string {
	g := r.Gate
	out := []string{
		fmt.Sprintf("New normative sentences: %d; changed or removed: %d; typo fixes: %d", g.NewNormative, g.ChangedNormative, g.Typos),
	}
	if n := len(g.NewMustWithoutClause); n > 0 {
		var w []string
		for _, s := range g.NewMustWithoutClause {
			w = append(w, fmt.Sprintf("L%d", s.Line))
		}
		out = append(out, fmt.Sprintf("New MUST / MUST NOT without a clause: %d (%s)", n, list(w, 12)))
	} else {
		out = append(out, "New MUST / MUST NOT without a clause: 0")
	}
	if n := len(g.StaleClauses); n > 0 {
		out = append(out, fmt.Sprintf("Clauses made stale: %d (%s)", n, list(g.StaleClauses, 12)))
	} else {
		out = append(out, "Clauses made stale: 0")
	}
	if g.NeedsAttention {
		out = append(out, "Needs attention: yes (exit status 1)")
	} else {
		out = append(out, "Needs attention: no")
	}
	return out
}

func writeDiffMD(w io.Writer, r *DiffReport) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# spec diff: %s → %s\n\n", r.Old, r.New)
	fmt.Fprintf(&b, "Normative changes: %s  \n", r.Summary())
	if len(r.SectionsAdded) > 0 {
		fmt.Fprintf(&b, "Sections added: %s  \n", strings.Join(r.SectionsAdded, "; "))
	}
	if len(r.SectionsRemoved) > 0 {
		fmt.Fprintf(&b, "Sections removed: %s  \n", strings.Join(r.SectionsRemoved, "; "))
	}
	if len(r.Changes) == 0 {
		b.WriteString("\nNo normative sentence changed.\n")
	}
	heads, by := groupByHeading(r.Changes)
	for _, h := range heads {
		name := h
		if name == "" {
			name = "(preamble)"
		}
		fmt.Fprintf(&b, "\n## § %s\n\n", name)
		for _, c := range by[h] {
			writeChangeMD(&b, c)
		}
	}
	b.WriteString("\n## Summary\n\n")
	for _, l := range r.GateLines() {
		fmt.Fprintf(&b, "- %s\n", l)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeChangeMD(b *strings.Builder, c Change) {
	switch c.Kind {
	case Added:
		fmt.Fprintf(b, "- **added** L%d [%s] %s\n", c.New.Line, c.New.Level, quote(c.New.Text))
	case Removed:
		fmt.Fprintf(b, "- **removed** (old L%d) [%s] %s\n", c.Old.Line, c.Old.Level, quote(c.Old.Text))
	case Moved:
		fmt.Fprintf(b, "- **moved** from § %s to § %s (L%d) [%s] %s\n", c.Old.Heading, c.New.Heading, c.New.Line, c.New.Level, quote(c.New.Text))
	default:
		what := "reworded"
		switch c.Kind {
		case LevelChanged:
			what = "level " + c.LevelChange
		case Typo:
			what = "typo: spelling only, no rule changed"
		}
		fmt.Fprintf(b, "- **%s** (similarity %.2f) L%d → L%d\n", what, c.Similarity, c.Old.Line, c.New.Line)
		fmt.Fprintf(b, "  - old [%s]: %s\n", levelName(c.Old.Level), quote(c.Old.Text))
		fmt.Fprintf(b, "  - new [%s]: %s\n", levelName(c.New.Level), quote(c.New.Text))
	}
	switch {
	case len(c.Clauses) > 0:
		fmt.Fprintf(b, "  - clauses: %s", strings.Join(c.Clauses, ", "))
		b.WriteString(" → " + casesText(c.Cases, c.NotTestable, 10))
		if len(c.Stale) > 0 {
			fmt.Fprintf(b, " — made stale: %s", strings.Join(c.Stale, ", "))
		}
		b.WriteString("\n")
	case c.Kind == Added || c.Kind == Reworded || c.Kind == LevelChanged:
		b.WriteString("  - no clause")
		if c.Hint != "" {
			fmt.Fprintf(b, " (closest: %s)", c.Hint)
		}
		b.WriteString("\n")
	}
	for _, v := range c.Verdicts {
		fmt.Fprintf(b, "  - %s: %s", v.Impl, v.Outcome)
		if v.Outcome == OutcomePass {
			b.WriteString(" before this change — re-run its cases")
		}
		if len(v.Readings) > 0 {
			fmt.Fprintf(b, " (readings: %s)", strings.Join(v.Readings, "; "))
		}
		b.WriteString("\n")
	}
}

const pageCSS = `body{font:15px/1.5 system-ui,sans-serif;max-width:72em;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #ccc;padding:.2em .5em;vertical-align:top;text-align:left}th{background:#f3f3f3}
code{background:#f4f4f4;padding:0 .2em;border-radius:3px}.muted{color:#777}.lvl{font-weight:600;white-space:nowrap}
.added{color:#0a6b0a}.removed{color:#a00}.old{background:#fde8e8}.new{background:#e6f6e6}.small{font-size:.85em}`

func esc(s string) string { return html.EscapeString(s) }

func writeCheckHTML(w io.Writer, r *CheckReport) error {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><meta charset=\"utf-8\"><title>spec check: %s</title><style>%s</style></head><body>\n", esc(r.Draft), pageCSS)
	fmt.Fprintf(&b, "<h1>spec check: %s</h1>\n<p>%s<br>Profile: <b>%s</b> (%s)<br>Coverage: %s</p>\n", esc(r.Draft), esc(r.Title), esc(r.Profile), esc(r.ProfileBy), esc(r.CoverageLine()))
	b.WriteString("<table><tr><th>level</th><th>sentences</th><th>with clause</th><th>with cases</th><th>not testable</th></tr>")
	for _, l := range Levels {
		if lc, ok := r.ByLevel[l]; ok {
			fmt.Fprintf(&b, "<tr><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>", l, lc.Total, lc.Covered, lc.WithCases, lc.NotTestable)
		}
	}
	b.WriteString("</table>\n")
	un := r.Uncovered()
	fmt.Fprintf(&b, "<h2>Sentences with no clause (%d)</h2><table><tr><th>where</th><th>level</th><th>sentence</th><th>note</th></tr>", len(un))
	for _, s := range un {
		fmt.Fprintf(&b, "<tr><td>%s</td><td class=lvl>%s</td><td>%s</td><td>%s</td></tr>", esc(s.Where()), s.Level, esc(s.Text), esc(s.Note))
	}
	fmt.Fprintf(&b, "</table>\n<h2>%s (%d)</h2><table><tr><th>clause</th><th>level</th><th>clause text</th><th>missing</th><th>cases</th><th>closest sentence</th></tr>", r.staleWord(), len(r.Stale))
	for _, s := range r.Stale {
		closest := ""
		if s.Closest != nil {
			closest = fmt.Sprintf("%s %s (%.2f)", s.Closest.Where(), quote(s.Closest.Text), s.Similarity)
		}
		fmt.Fprintf(&b, "<tr><td>%s</td><td class=lvl>%s</td><td>%s</td><td>%d of %d</td><td class=small>%s</td><td>%s</td></tr>", esc(s.Clause), s.Level, esc(s.Text), s.Missing, s.Anchors, esc(strings.Join(s.Cases, ", ")), esc(closest))
	}
	b.WriteString("</table>\n<h2>Covered sentences</h2><table><tr><th>where</th><th>level</th><th>sentence</th><th>clauses</th><th>cases</th></tr>")
	for _, s := range r.Sentences {
		if s.Covered {
			fmt.Fprintf(&b, "<tr><td>%s</td><td class=lvl>%s</td><td>%s</td><td class=small>%s</td><td class=small>%s</td></tr>", esc(s.Where()), s.Level, esc(s.Text), esc(strings.Join(s.Clauses, ", ")), esc(casesText(s.Cases, s.NotTestable, 0)))
		}
	}
	fmt.Fprintf(&b, "</table>\n<h2>Unsure or ambiguous sentences (%d)</h2><table><tr><th>where</th><th>level</th><th>sentence</th><th>why</th></tr>", len(r.Unsure))
	for _, s := range r.Unsure {
		fmt.Fprintf(&b, "<tr><td>%s</td><td class=lvl>%s</td><td>%s</td><td>%s</td></tr>", esc(s.Where()), s.Level, esc(s.Text), esc(s.Unsure))
	}
	fmt.Fprintf(&b, "</table>\n<h2>Level readings (%d)</h2><table><tr><th>case</th><th>level</th><th>clauses</th><th>reading</th></tr>", len(r.LevelReadings))
	for _, l := range r.LevelReadings {
		fmt.Fprintf(&b, "<tr><td>%s</td><td class=lvl>%s</td><td class=small>%s</td><td>%s</td></tr>", esc(l.Case), esc(l.Level), esc(strings.Join(l.Clauses, ", ")), esc(l.Reading))
	}
	b.WriteString("</table></body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func writeDiffHTML(w io.Writer, r *DiffReport) error {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><meta charset=\"utf-8\"><title>spec diff: %s → %s</title><style>%s</style></head><body>\n", esc(r.Old), esc(r.New), pageCSS)
	fmt.Fprintf(&b, "<h1>spec diff: %s → %s</h1>\n<p>Normative changes: %s", esc(r.Old), esc(r.New), esc(r.Summary()))
	if len(r.SectionsAdded) > 0 {
		fmt.Fprintf(&b, "<br>Sections added: %s", esc(strings.Join(r.SectionsAdded, "; ")))
	}
	if len(r.SectionsRemoved) > 0 {
		fmt.Fprintf(&b, "<br>Sections removed: %s", esc(strings.Join(r.SectionsRemoved, "; ")))
	}
	b.WriteString("</p>\n")
	heads, by := groupByHeading(r.Changes)
	for _, h := range heads {
		fmt.Fprintf(&b, "<h2>§ %s</h2><table><tr><th>change</th><th>old</th><th>new</th><th>clauses → cases</th></tr>\n", esc(h))
		for _, c := range by[h] {
			kind := c.Kind
			if c.Kind == LevelChanged {
				kind = "level " + c.LevelChange
			}
			if c.Kind == Typo {
				kind = "typo (spelling only)"
			}
			if c.Similarity > 0 && c.Kind != Moved {
				kind += fmt.Sprintf(" (%.2f)", c.Similarity)
			}
			oldT, newT := "", ""
			if c.Old != nil {
				oldT = fmt.Sprintf("<span class=muted>L%d %s</span> %s", c.Old.Line, levelName(c.Old.Level), esc(c.Old.Text))
			}
			if c.New != nil {
				newT = fmt.Sprintf("<span class=muted>L%d %s</span> %s", c.New.Line, levelName(c.New.Level), esc(c.New.Text))
			}
			aff := esc(strings.Join(c.Clauses, ", "))
			if len(c.Clauses) > 0 {
				aff += " → " + esc(casesText(c.Cases, c.NotTestable, 0))
			}
			if aff == "" {
				aff = "no clause"
				if c.Hint != "" {
					aff += " (closest: " + esc(c.Hint) + ")"
				}
			}
			for _, v := range c.Verdicts {
				aff += "<br>" + esc(v.Impl+": "+v.Outcome)
			}
			fmt.Fprintf(&b, "<tr><td class=lvl>%s</td><td class=old>%s</td><td class=new>%s</td><td class=small>%s</td></tr>\n", esc(kind), oldT, newT, aff)
		}
		b.WriteString("</table>\n")
	}
	b.WriteString("<h2>Summary</h2><ul>")
	for _, l := range r.GateLines() {
		fmt.Fprintf(&b, "<li>%s</li>", esc(l))
	}
	b.WriteString("</ul></body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
