package reports

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/nipcl/nipcl-conform/internal/text"
)

// MatrixSource is one implementation's results: one column group of the
// matrix, with a column per plan (a profile's suites) it ran.
type MatrixSource struct {
	// Name names the implementation, e.g. "relay29" or "reference (labels)".
	Name string
	// Origin says where the results come from: a relay URL, the built-in
	// reference relay, or the results.json file of an earlier run.
	Origin  string
	Results *Results
}

// Matrix is case × column outcomes, the columns being implementations ×
// profile, for comparing independent implementations (or draft revisions)
// side by side.
type Matrix struct {
	Groups  []MatrixGroup  // implementations, in column order
	Columns []MatrixColumn // every group's columns, in order
	Rows    []MatrixRow    // cases, sorted by section, then ID
	// HTMLFile is the name of the HTML rendering, which holds the details
	// of every non-pass; the Markdown names it. Default "matrix.html".
	HTMLFile string
}

// MatrixGroup is one implementation: a run of adjacent columns.
type MatrixGroup struct {
	Name, Origin string
	RunID        string
	Interrupted  string // the run was cut short (deadline, signal)
	Columns      int    // how many columns the group spans
}

// MatrixColumn is one implementation × profile: one plan of its results.
type MatrixColumn struct {
	Implementation string
	Profile        string
	Plan           string // the plan's name in the implementation's results
	// Label is the column's heading under its implementation: the profile,
	// or the plan name when the implementation ran a profile twice.
	Label string
	// Anchor is the HTML id of the column's detail section.
	Anchor           string
	Target, URL      string
	SetupError, Note string
	Counts           map[Outcome]int
	// Details are the column's non-passes, in row order.
	Details []MatrixDetail
}

// MatrixDetail is one non-pass of a column, with the HTML id its cell
// links to.
type MatrixDetail struct {
	Anchor    string
	RowAnchor string // HTML id of the case's row, to go back to the table
	CaseResult
}

// MatrixRow is one case: what it checks and its outcome per column.
type MatrixRow struct {
	ID, Section, Level, Source, Ref, Requirement string
	Clauses                                      []string
	Anchor                                       string // HTML id of the row
	Cells                                        []MatrixCell
}

// MatrixCell is one case's outcome in one column.
type MatrixCell struct {
	Outcome Outcome // "" = not run in this column
	// Anchor is the HTML id of the case's detail entry (non-passes only).
	Anchor  string
	Message string // first line of the case's message
}

// MatrixSection is the rows of one section, for grouped rendering.
type MatrixSection struct {
	Name string
	Rows []MatrixRow
}

// OutcomeCount is one outcome's number of cases.
type OutcomeCount struct {
	Outcome Outcome
	N       int
}

// Sections groups the rows by section, in row order.
func (m Matrix) Sections() []MatrixSection {
	var out []MatrixSection
	for _, r := range m.Rows {
		if len(out) == 0 || out[len(out)-1].Name != r.Section {
			out = append(out, MatrixSection{Name: r.Section})
		}
		out[len(out)-1].Rows = append(out[len(out)-1].Rows, r)
	}
	return out
}

// CountList returns the column's non-zero outcome counts in report order.
func (c MatrixColumn) CountList() []OutcomeCount {
	var out []OutcomeCount
	for _, o := range Outcomes {
		if n := c.Counts[o]; n > 0 {
			out = append(out, OutcomeCount{o, n})
		}
	}
	return out
}

// Heading is the column's full name: implementation · label.
func (c MatrixColumn) Heading() string { return c.Implementation + " · " + c.Label }

// BuildMatrix arranges the sources' results by case (rows, grouped by
// section) and by implementation × plan (columns, in source order, then
// the order each run listed its plans). Every non-pass gets a detail entry
// its cell links to.
func BuildMatrix(sources ...MatrixSource) Matrix {
	m := Matrix{}
	anchors := anchorSet{}
	type colKey struct {
		src  int
		plan string
	}
	col := map[colKey]int{}
	for si, s := range sources {
		r := s.Results
		if r == nil {
			r = &Results{}
		}
		g := MatrixGroup{Name: s.Name, Origin: s.Origin, RunID: r.RunID, Interrupted: r.Interrupted}
		first := len(m.Columns)
		add := func(p PlanResult) {
			if _, dup := col[colKey{si, p.Name}]; dup {
				return
			}
			col[colKey{si, p.Name}] = len(m.Columns)
			profile := p.Profile
			if profile == "" {
				profile = p.Name
			}
			m.Columns = append(m.Columns, MatrixColumn{
				Implementation: s.Name, Profile: profile, Plan: p.Name, Label: profile,
				Target: p.Target, URL: p.URL, SetupError: p.SetupError, Note: p.Note,
				Counts: map[Outcome]int{},
			})
		}
		for _, p := range r.Plans {
			add(p)
		}
		for _, c := range r.Cases { // plans only named by their cases
			add(PlanResult{Name: c.Plan, Profile: c.Profile})
		}
		seen := map[string]int{}
		for _, c := range m.Columns[first:] {
			seen[c.Profile]++
		}
		for i := first; i < len(m.Columns); i++ {
			c := &m.Columns[i]
			if seen[c.Profile] > 1 && c.Plan != "" {
				c.Label = c.Plan
			}
			c.Anchor = anchors.make(c.Implementation, c.Label)
		}
		g.Columns = len(m.Columns) - first
		m.Groups = append(m.Groups, g)
	}

	rows := map[string]*MatrixRow{}
	var order []*MatrixRow
	for si, s := range sources {
		if s.Results == nil {
			continue
		}
		for _, c := range s.Results.Cases {
			row := rows[c.ID]
			if row == nil {
				row = &MatrixRow{ID: c.ID}
				rows[c.ID] = row
				order = append(order, row)
			}
			// Older results lack some fields; the first source that has one wins.
			fill(&row.Section, c.Section)
			fill(&row.Level, string(c.Level))
			fill(&row.Source, c.Source)
			fill(&row.Ref, c.Ref)
			fill(&row.Requirement, c.Requirement)
			if len(row.Clauses) == 0 {
				row.Clauses = c.Clauses
			}
			if row.Cells == nil {
				row.Cells = make([]MatrixCell, len(m.Columns))
			}
			row.Cells[col[colKey{si, c.Plan}]] = MatrixCell{Outcome: c.Outcome, Message: text.FirstLine(c.Message)}
		}
	}
	sort.Slice(order, func(i, j int) bool {
		if order[i].Section != order[j].Section {
			return order[i].Section < order[j].Section
		}
		return order[i].ID < order[j].ID
	})
	for _, row := range order {
		row.Anchor = anchors.make("case", row.ID)
		m.Rows = append(m.Rows, *row)
	}

	// Details, in row order: index each source's cases by plan and ID.
	type caseKey struct {
		col int
		id  string
	}
	byCell := map[caseKey]CaseResult{}
	for si, s := range sources {
		if s.Results == nil {
			continue
		}
		for _, c := range s.Results.Cases {
			i := col[colKey{si, c.Plan}]
			byCell[caseKey{i, c.ID}] = c
			m.Columns[i].Counts[c.Outcome]++
		}
	}
	for ri := range m.Rows {
		row := &m.Rows[ri]
		for ci := range row.Cells {
			cell := &row.Cells[ci]
			if cell.Outcome == "" || cell.Outcome == Pass {
				continue
			}
			cell.Anchor = anchors.make(m.Columns[ci].Anchor, row.ID)
			m.Columns[ci].Details = append(m.Columns[ci].Details, MatrixDetail{Anchor: cell.Anchor, RowAnchor: row.Anchor, CaseResult: byCell[caseKey{ci, row.ID}]})
		}
	}
	return m
}

// PlanSubset returns the part of r that concerns the named plans (their
// plan results and cases, in r's order), so that one run's plans can be
// shown as several implementations.
func PlanSubset(r *Results, plans ...string) *Results {
	want := map[string]bool{}
	for _, p := range plans {
		want[p] = true
	}
	out := *r
	out.Plans, out.Cases = nil, nil
	for _, p := range r.Plans {
		if want[p.Name] {
			out.Plans = append(out.Plans, p)
		}
	}
	for _, c := range r.Cases {
		if want[c.Plan] {
			out.Cases = append(out.Cases, c)
		}
	}
	return &out
}

func fill(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

// anchorSet hands out unique HTML ids built from readable text.
type anchorSet map[string]bool

// make joins the parts' slugs with "." into an id not handed out before.
func (a anchorSet) make(parts ...string) string {
	slugs := make([]string, len(parts))
	for i, p := range parts {
		slugs[i] = slug(p)
	}
	base := strings.Join(slugs, ".")
	id := base
	for i := 2; a[id]; i++ {
		id = base + "-" + strconv.Itoa(i)
	}
	a[id] = true
	return id
}

// slug keeps letters, digits, "_" and "." of s and turns every other run
// of characters into one "-".
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}

// outcomeMeaning explains each outcome in the legends.
var outcomeMeaning = map[Outcome]string{
	Pass:         "the implementation did what the case checks",
	Fail:         "it did not: it breaks the requirement",
	Timeout:      "no answer before a deadline",
	HarnessError: "the harness (or the column's setup) failed; says nothing about the implementation",
	Blocked:      "the target does not meet a precondition the harness needs to drive the case; says nothing about conformance",
	Unsupported:  "the implementation lacks an optional feature the case needs",
	NotRun:       "the harness stopped (an interrupt, a cancel, the run's deadline) before the case ran to its end; says nothing about the implementation",
	Skipped:      "not applicable to the profile or the run",
}

// WriteMatrixMarkdown renders the matrix as Markdown: one line per column
// with its counts, then the case table with outcome words. Messages, notes
// and transcripts are in the HTML rendering, which it names.
func WriteMatrixMarkdown(w io.Writer, m Matrix) error {
	var b strings.Builder
	b.WriteString("## nipcl-conform matrix: implementations side by side\n\n")
	b.WriteString("| implementation | profile | from | " + strings.Join(outcomeStrings(), " | ") + " |\n")
	b.WriteString("|---|---|---|" + strings.Repeat("---|", len(Outcomes)) + "\n")
	gi, left := 0, 0
	for _, c := range m.Columns {
		for left == 0 && gi < len(m.Groups) {
			left = m.Groups[gi].Columns
			gi++
		}
		left--
		from := m.Groups[gi-1].Origin
		if c.SetupError != "" {
			from += " — setup failed: " + c.SetupError
		}
		counts := make([]string, len(Outcomes))
		for i, o := range Outcomes {
			counts[i] = strconv.Itoa(c.Counts[o])
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCell(c.Implementation), mdCell(c.Label), mdCell(from), strings.Join(counts, " | "))
	}
	html := m.HTMLFile
	if html == "" {
		html = "matrix.html"
	}
	fmt.Fprintf(&b, "\nMessages, notes and wire transcripts of every non-pass: `%s` (a section per column; each cell links to its case).\n\n", html)
	heads := make([]string, len(m.Columns))
	for i, c := range m.Columns {
		heads[i] = mdCell(c.Heading())
	}
	b.WriteString("| case | level | source | section | " + strings.Join(heads, " | ") + " |\n")
	b.WriteString("|---|---|---|---|" + strings.Repeat("---|", len(m.Columns)) + "\n")
	for _, r := range m.Rows {
		cells := make([]string, len(r.Cells))
		for i, c := range r.Cells {
			cells[i] = string(c.Outcome)
			if c.Outcome == "" {
				cells[i] = "—"
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", r.ID, r.Level, r.Source, mdCell(r.Section), strings.Join(cells, " | "))
	}
	b.WriteString("\nOutcomes: ")
	for i, o := range Outcomes {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "**%s** %s", o, outcomeMeaning[o])
	}
	b.WriteString("; **—** not run in that column.\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write matrix Markdown: %w", err)
	}
	return nil
}

func outcomeStrings() []string {
	out := make([]string, len(Outcomes))
	for i, o := range Outcomes {
		out[i] = string(o)
	}
	return out
}

// mdCell makes s safe inside a Markdown table cell.
func mdCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ")
}

// matrixHTML is what the HTML template renders.
type matrixHTML struct {
	Matrix
	Width    int // table columns: case, level, source + one per matrix column
	Outcomes []Outcome
	Meaning  map[Outcome]string
	// Transcripts by detail anchor; long ones are in Blob, loaded when
	// opened (transcripts.go).
	Transcripts map[string]pageTranscript
	Blob        template.JS
	Loader      template.HTML
}

// WriteMatrixHTML renders the matrix as one self-contained HTML page (no
// external assets; JavaScript only to load a long transcript when its
// details are opened): the table, a legend, and a detail
// section per column with the message, notes and wire transcript of every
// non-pass, which the cells link to.
func WriteMatrixHTML(w io.Writer, m Matrix) error {
	d := matrixHTML{Matrix: m, Width: 3 + len(m.Columns), Outcomes: Outcomes, Meaning: outcomeMeaning, Transcripts: map[string]pageTranscript{}}
	var store transcriptStore
	for _, col := range m.Columns {
		for _, det := range col.Details {
			if det.Transcript != "" {
				d.Transcripts[det.Anchor] = store.add(det.Transcript)
			}
		}
	}
	if d.Blob = store.Blob(); d.Blob != "" {
		d.Loader = template.HTML(transcriptLoader)
	}
	if err := matrixTemplate.Execute(w, d); err != nil {
		return fmt.Errorf("render matrix HTML: %w", err)
	}
	return nil
}

var matrixTemplate = template.Must(template.New("matrix").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>nipcl-conform matrix</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#222}
h1{font-size:1.5em} h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc} h3{font-size:1.05em;margin-top:1.6em}
table{border-collapse:collapse} td,th{border:1px solid #ccc;padding:.2em .5em;font-size:13px;vertical-align:top}
th{background:#f4f4f4;text-align:left} tr.sec th{background:#e8ecf4}
td.o a{color:inherit;text-decoration:none;display:block} td.o a:hover{text-decoration:underline}
.pass{background:#cdeccf} .fail{background:#f4b8c1} .timeout{background:#f9cfa5} .harness-error{background:#d9c8f0}
.blocked{background:#ffd966} .unsupported{background:#e4e4e4;color:#555} .skipped{background:#f4f4f4;color:#888} .none{color:#aaa}
.count{display:inline-block;padding:0 .3em;margin:.1em;border-radius:3px;white-space:nowrap}
.detail{border-left:4px solid #ccc;padding:.1em 1em;margin:1em 0} .detail:target{border-left-color:#1a56db;background:#f3f7ff}
.badge{padding:0 .4em;border-radius:3px} pre{background:#f7f7f7;padding:.6em;font-size:12px;white-space:pre-wrap;max-height:30em;overflow:auto}
code{background:#f0f0f0;padding:0 .2em} .muted{color:#666}
</style></head><body>
<h1>nipcl-conform: implementations side by side</h1>
<p>{{len .Rows}} cases × {{len .Columns}} columns (implementation × profile). Each cell links to its case's details below.</p>
<table><thead>
<tr><th rowspan="3">case</th><th rowspan="3">level</th><th rowspan="3">source</th>{{range .Groups}}<th colspan="{{.Columns}}" title="{{.Origin}}">{{.Name}}</th>{{end}}</tr>
<tr>{{range .Columns}}<th><a href="#{{.Anchor}}" title="{{.Plan}}">{{.Label}}</a></th>{{end}}</tr>
<tr>{{range .Columns}}<th>{{if .SetupError}}<span class="count harness-error">setup failed</span>{{end}}{{range .CountList}}<span class="count {{.Outcome}}">{{.N}} {{.Outcome}}</span> {{end}}</th>{{end}}</tr>
</thead><tbody>
{{- $w := .Width}}{{range .Sections}}
<tr class="sec"><th colspan="{{$w}}">{{if .Name}}{{.Name}}{{else}}(no section){{end}}</th></tr>
{{- range .Rows}}
<tr id="{{.Anchor}}"><td><code title="{{.Requirement}}">{{.ID}}</code></td><td>{{.Level}}</td><td title="{{.Ref}}">{{.Source}}</td>
{{- range .Cells}}{{if not .Outcome}}<td class="none">—</td>{{else if .Anchor}}<td class="o {{.Outcome}}"><a href="#{{.Anchor}}" title="{{.Message}}">{{.Outcome}}</a></td>{{else}}<td class="o {{.Outcome}}">{{.Outcome}}</td>{{end}}{{end}}</tr>
{{- end}}{{end}}
</tbody></table>
<h2>Legend</h2>
<table>{{$m := .Meaning}}{{range .Outcomes}}<tr><td class="{{.}}">{{.}}</td><td>{{index $m .}}</td></tr>{{end}}
<tr><td class="none">—</td><td>not run in that column</td></tr></table>
<p class="muted">Source: whose rule the case enforces — <code>nip</code> (the NIP text), <code>draft</code> (the NIP-CL draft), <code>contract</code> (what the harness needs of a target); hover for the reference.</p>
<h2>Implementations</h2>
<table><tr><th>implementation</th><th>from</th><th>run</th></tr>
{{range .Groups}}<tr><td>{{.Name}}</td><td>{{.Origin}}</td><td>{{if .RunID}}<code>{{.RunID}}</code>{{end}}{{if .Interrupted}} <strong>{{.Interrupted}}</strong>{{end}}</td></tr>{{end}}
</table>
<h2>Details</h2>
{{range .Columns}}<section id="{{.Anchor}}">
<h3>{{.Heading}}</h3>
<p class="muted">plan <code>{{.Plan}}</code>{{if .Target}}, target {{.Target}}{{end}}{{if .URL}} <code>{{.URL}}</code>{{end}}</p>
{{if .SetupError}}<p class="badge harness-error">setup failed: {{.SetupError}}</p>{{end}}
{{if .Note}}<p>{{.Note}}</p>{{end}}
{{range .Details}}<div class="detail" id="{{.Anchor}}">
<h4><span class="badge {{.Outcome}}">{{.Outcome}}</span> <code>{{.ID}}</code> ({{.Level}}{{if .Section}}, section <code>{{.Section}}</code>{{end}}) <a href="#{{.RowAnchor}}" title="back to the table">↑</a></h4>
{{if .Requirement}}<p><strong>Requirement</strong>: {{.Requirement}}</p>{{end}}
{{if .Source}}<p><strong>Source</strong>: {{.Source}}{{if .Ref}} — {{.Ref}}{{end}}</p>{{end}}
{{if .Precondition}}<p><strong>Unmet precondition</strong>: <code>{{.Precondition}}</code></p>{{end}}
{{if .Message}}<pre>{{.Message}}</pre>{{end}}
{{if .Notes}}<p><strong>Notes</strong>:</p><ul>{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Location}}<p>at <code>{{.Location}}</code></p>{{end}}
{{if .Repro}}<p><strong>Reproduce</strong>: <code>{{.Repro}}</code></p>{{end}}
{{with index $.Transcripts .Anchor}}{{if .Key}}<details data-t="{{.Key}}"><summary><strong>Wire transcript</strong> ({{.Lines}} lines: the first of them here, all once opened)</summary><pre>{{.Preview}}</pre></details>{{else if .Text}}<p><strong>Wire transcript</strong>:</p><pre>{{.Text}}</pre>{{end}}{{end}}
</div>{{else}}<p>No non-passes.</p>{{end}}
</section>
{{end}}{{if .Blob}}<script type="application/json" id="nipcl-transcripts">{{.Blob}}</script>
{{.Loader}}{{end}}</body></html>
`))
