package reports

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
)

// Matrix is case × plan outcomes, for comparing targets (or draft
// revisions) side by side.
type Matrix struct {
	Plans []string
	Rows  []MatrixRow
}

// MatrixRow is one case's outcome per plan ("" = not run there).
type MatrixRow struct {
	ID, Section, Level string
	Cells              []Outcome
}

// BuildMatrix arranges results by case ID (rows) and plan (columns, in
// the order the run listed its plans).
func BuildMatrix(r *Results) Matrix {
	m := Matrix{}
	col := map[string]int{}
	for _, p := range r.Plans {
		col[p.Name] = len(m.Plans)
		m.Plans = append(m.Plans, p.Name)
	}
	rows := map[string]*MatrixRow{}
	for _, c := range r.Cases {
		row := rows[c.ID]
		if row == nil {
			row = &MatrixRow{ID: c.ID, Section: c.Section, Level: c.Level, Cells: make([]Outcome, len(m.Plans))}
			rows[c.ID] = row
		}
		if i, ok := col[c.Plan]; ok {
			row.Cells[i] = c.Outcome
		}
	}
	for _, row := range rows {
		m.Rows = append(m.Rows, *row)
	}
	sort.Slice(m.Rows, func(i, j int) bool { return m.Rows[i].ID < m.Rows[j].ID })
	return m
}

// WriteMatrixMarkdown renders the matrix as a Markdown table.
func WriteMatrixMarkdown(w io.Writer, m Matrix) error {
	var b strings.Builder
	b.WriteString("| case | level | section | " + strings.Join(m.Plans, " | ") + " |\n")
	b.WriteString("|---|---|---|" + strings.Repeat("---|", len(m.Plans)) + "\n")
	for _, r := range m.Rows {
		cells := make([]string, len(r.Cells))
		for i, c := range r.Cells {
			cells[i] = string(c)
			if c == "" {
				cells[i] = "—"
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", r.ID, r.Level, r.Section, strings.Join(cells, " | "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMatrixHTML renders the matrix as one self-contained HTML page.
func WriteMatrixHTML(w io.Writer, m Matrix) error {
	return matrixTemplate.Execute(w, m)
}

var matrixTemplate = template.Must(template.New("matrix").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>nipcl-conform matrix</title>
<style>body{font-family:system-ui,sans-serif;margin:2em} table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:.2em .5em;font-size:13px} th{background:#f4f4f4}
.pass{background:#dff3e3} .fail,.timeout,.harness-error{background:#f9d6dc} .unsupported,.skipped{background:#eee;color:#777}</style>
</head><body><h1>nipcl-conform: case × target</h1>
<table><tr><th>case</th><th>level</th><th>section</th>{{range .Plans}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td><code>{{.ID}}</code></td><td>{{.Level}}</td><td>{{.Section}}</td>{{range .Cells}}<td class="{{.}}">{{if .}}{{.}}{{else}}—{{end}}</td>{{end}}</tr>{{end}}
</table></body></html>
`))
