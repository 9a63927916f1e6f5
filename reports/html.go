package reports

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
)

// Coverage is one row of the clause-coverage table in the HTML report.
type Coverage struct {
	ID       string // clause or section ID
	Title    string
	Cases    []string
	Outcomes map[Outcome]int
	Note     string // e.g. "not testable over the wire: …"
}

// HTMLOptions carries what the HTML report shows beyond the results.
type HTMLOptions struct {
	Coverage []Coverage
}

type areaRow struct {
	Plan, Area string
	Counts     map[Outcome]int
}

type htmlData struct {
	R        *Results
	Verdict  string
	Counts   map[Outcome]int
	Outcomes []Outcome
	Areas    []areaRow
	Failures []CaseResult
	Coverage []Coverage
	Incompat []Incompatibility
	Causes   []Cause
	Headline string
	Sections []string          // distinct sections of the run's cases, for the filter
	Must     map[string]string // plan → "passed/applicable" MUST cases
	Known    string            // how a known failure is marked (KnownWord)
	// Transcripts: each failure's, by "plan-ID" (the failure's anchor);
	// long ones are in Blob, loaded when opened (transcripts.go).
	Transcripts map[string]pageTranscript
	Blob        template.JS
	Loader      template.HTML
}

// WriteHTML renders r as one self-contained HTML file (no external assets).
func WriteHTML(w io.Writer, r *Results, o HTMLOptions) error {
	d := htmlData{R: r, Verdict: verdict(r), Counts: r.Counts(), Outcomes: Outcomes, Coverage: o.Coverage, Incompat: r.Incompatibilities(), Causes: r.Causes()}
	if len(d.Causes) > 0 {
		d.Headline = causesHeadline(d.Causes)
	}
	seen := map[string]bool{}
	for _, c := range r.Cases {
		if c.Section != "" && !seen[c.Section] {
			seen[c.Section] = true
			d.Sections = append(d.Sections, c.Section)
		}
	}
	sort.Strings(d.Sections)
	d.Must = map[string]string{}
	for _, p := range r.Plans {
		var cases []CaseResult
		for _, c := range r.Cases {
			if c.Plan == p.Name {
				cases = append(cases, c)
			}
		}
		passed, applicable := MustTally(cases)
		d.Must[p.Name] = fmt.Sprintf("%d/%d", passed, applicable)
	}
	idx := map[string]int{}
	setup := r.setupFailed()
	for _, c := range r.Cases {
		k := c.Plan + "\x00" + c.Area
		i, ok := idx[k]
		if !ok {
			i = len(d.Areas)
			idx[k] = i
			d.Areas = append(d.Areas, areaRow{Plan: c.Plan, Area: c.Area, Counts: map[Outcome]int{}})
		}
		d.Areas[i].Counts[c.Outcome]++
		if (c.Outcome == Fail || c.Outcome == Timeout || c.Outcome == HarnessError || c.Outcome == Blocked) && !setup[c.Plan] {
			d.Failures = append(d.Failures, c)
		}
	}
	d.Failures = NewFirst(d.Failures)
	var store transcriptStore
	d.Transcripts = map[string]pageTranscript{}
	for _, c := range d.Failures {
		if c.Transcript != "" {
			d.Transcripts[c.Plan+"-"+c.ID] = store.add(c.Transcript)
		}
	}
	if d.Blob = store.Blob(); d.Blob != "" {
		d.Loader = template.HTML(transcriptLoader)
	}
	d.Known = KnownWord(r)
	sort.Slice(d.Areas, func(i, j int) bool {
		if d.Areas[i].Plan != d.Areas[j].Plan {
			return d.Areas[i].Plan < d.Areas[j].Plan
		}
		return d.Areas[i].Area < d.Areas[j].Area
	})
	if err := htmlTemplate.Execute(w, d); err != nil {
		return fmt.Errorf("render HTML report: %w", err)
	}
	return nil
}

// HTMLWriter adapts WriteHTML to WriteFile.
func HTMLWriter(o HTMLOptions) func(io.Writer, *Results) error {
	return func(w io.Writer, r *Results) error { return WriteHTML(w, r, o) }
}

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"count":       func(m map[Outcome]int, o Outcome) int { return m[o] },
	"sourceWords": sourceWords,
	"known":       Known,
	"brokenLine":  BrokenLine,
	"slug":        func(s string) string { return strings.NewReplacer("/", "-", ".", "-", " ", "-").Replace(s) },
	"passPct": func(m map[Outcome]int) int {
		total := 0
		for _, n := range m {
			total += n
		}
		if total == 0 {
			return 0
		}
		return 100 * m[Pass] / total
	},
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>nipcl-conform report {{.R.RunID}}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}
h1{font-size:1.5em} h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0} td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
th{background:#f4f4f4} .pass{color:#176e2b} .fail,.timeout,.harness-error{color:#b00020;font-weight:bold}
.unsupported,.skipped,.not-run{color:#777} em.known{color:#8a5a00;font-style:normal;font-weight:normal} .blocked{color:#8a5a00} pre{background:#f7f7f7;padding:.6em;overflow-x:auto;font-size:12px;white-space:pre-wrap}
.failure{border-left:4px solid #b00020;padding-left:1em;margin:1.5em 0} details.cause{border-left:4px solid #b00020;padding:.2em 1em;margin:.6em 0} details.cause summary{cursor:pointer}
.filters input{margin-left:.8em}
table.targets{width:100%;table-layout:fixed} table.targets td{overflow-wrap:anywhere}
pre.wire{white-space:pre;overflow-x:auto}
{{range .Outcomes}}#fo-{{.}}:checked ~ table.cases tr[class]:not(.o-{{.}}){display:none}
{{end}}{{range .Sections}}#fx-{{slug .}}:checked ~ table.cases tr[class]:not(.x-{{slug .}}){display:none}
{{end}}#fs-nip:checked ~ table.cases tr[class]:not(.s-nip),#fs-draft:checked ~ table.cases tr[class]:not(.s-draft),#fs-contract:checked ~ table.cases tr[class]:not(.s-contract){display:none}
.bar{display:inline-block;height:.7em;background:#176e2b;vertical-align:middle} .barbg{display:inline-block;width:6em;height:.7em;background:#f9d6dc;vertical-align:middle}
 code{background:#f0f0f0;padding:0 .2em}
</style></head><body>
<h1>nipcl-conform: {{.Verdict}}</h1>
<p>Run <code>{{.R.RunID}}</code>, {{.R.Started.Format "2006-01-02 15:04:05 MST"}} – {{.R.Finished.Format "15:04:05"}}.
{{if .R.StoppedBy}}<strong>Stopped by {{.R.StoppedBy}}: the cases marked not-run say nothing about the relay.</strong>{{else if .R.Interrupted}}<strong>{{.R.Interrupted}}</strong>{{end}}</p>
{{if or .R.Version .R.Catalogue}}<p id="claim">Harness <code>{{.R.Tool}} {{.R.Version}}</code>, commit <code>{{.R.Commit}}</code>{{if .R.Modified}} (modified){{end}}; case catalogue <code>{{.R.Catalogue}}</code>.
{{if .R.Specs}}Spec revisions targeted: {{range $i, $s := .R.Specs}}{{if $i}}; {{end}}<code>{{$s.Profile}}</code> {{$s.Name}} <code>{{$s.Revision}}</code>{{if $s.Date}} ({{$s.Date}}){{end}}{{end}}.{{end}}
Check this run's results file with <code>nipcl-conform report verify results.json</code>.</p>{{end}}
{{if .Causes}}<h2 id="causes">{{.Headline}}</h2>
<p>Cases that did not pass for the same reason are one root cause, most cases first. Open one for the requirement, whose rule it is, a wire excerpt and the cases it explains.</p>
{{range $i, $k := .Causes}}<details class="cause"><summary><strong>{{len $k.Cases}}</strong> case{{if gt (len $k.Cases) 1}}s{{end}} · <span class="{{$k.Outcome}}">{{$k.Outcome}}</span> · {{$k.Level}} · {{$k.Example}}</summary>
<p><strong>Requirement</strong>: {{$k.Requirement}}</p>
<p><strong>Whose rule</strong>: {{sourceWords $k.Source $k.Ref}}; sections {{range $k.Sections}}<code>{{.}}</code> {{end}}</p>
<p><strong>Cases</strong> ({{$k.Plan}}): {{range $k.Cases}}<a href="#{{$k.Plan}}-{{.}}"><code>{{.}}</code></a> {{end}}</p>
{{if $k.Excerpt}}<p><strong>Wire excerpt</strong> (first case):</p><pre class="wire">{{$k.Excerpt}}</pre>{{end}}
<p>Learn more: <code>{{$k.Explain}}</code></p></details>
{{end}}{{end}}
<h2>Targets</h2>
<table class="targets"><tr><th>plan</th><th>target</th><th>profile</th><th>relay (NIP-11)</th><th>relay key</th><th>MUST passed</th><th>notes</th></tr>
{{$must := .Must}}{{range .R.Plans}}<tr><td>{{.Name}}</td><td>{{.Target}}{{if .URL}}<br><code>{{.URL}}</code>{{end}}</td><td>{{.Profile}}</td>
<td>{{with .Relay}}{{.Software}} {{.Version}}{{if .Name}} ({{.Name}}){{end}}{{if .Self}}<br>self <code>{{.Self}}</code>{{end}}{{end}}</td><td><code>{{.RelayPubKey}}</code></td><td>{{index $must .Name}}</td>
<td>{{if .SetupError}}<span class="fail">setup failed: {{.SetupError}}</span>{{end}}{{.Note}}{{with .Cleanup}}<br>safe mode: deleted {{.Deleted}} channels{{if .Failed}}; <span class="fail">could not delete {{len .Failed}}</span>:<ul>{{range .Failed}}<li>{{.}}</li>{{end}}</ul>{{end}}{{end}}{{if .Keys}}<details><summary>keys: what each may do ({{len .Keys}})</summary><ul>{{range .Keys}}<li>{{.String}}{{if .Evidence}}<br><small>{{range .Evidence}}{{.}}; {{end}}</small>{{end}}</li>{{end}}</ul></details>{{end}}{{if .Logs}}<details><summary>relay logs</summary><pre>{{.Logs}}</pre></details>{{end}}</td></tr>{{end}}
</table>
<h2>Summary</h2>
<table><tr>{{range .Outcomes}}<th>{{.}}</th>{{end}}</tr><tr>{{$c := .Counts}}{{range .Outcomes}}<td class="{{.}}">{{count $c .}}</td>{{end}}</tr></table>
<p>Settings: {{range $k, $v := .R.Settings}}<code>{{$k}}={{$v}}</code> {{end}}</p>
<h2>Areas</h2>
<table><tr><th>plan</th><th>area</th><th>passed</th>{{range .Outcomes}}<th>{{.}}</th>{{end}}</tr>
{{$outs := .Outcomes}}{{range .Areas}}<tr><td>{{.Plan}}</td><td>{{.Area}}</td><td><span class="barbg"><span class="bar" style="width:{{passPct .Counts}}%"></span></span> {{passPct .Counts}}%</td>{{$a := .Counts}}{{range $outs}}<td class="{{if count $a .}}{{.}}{{end}}">{{count $a .}}</td>{{end}}</tr>{{end}}
</table>
{{if .Incompat}}<h2>Incompatible ({{len .Incompat}})</h2>
<p>Preconditions the harness needs to drive these cases and the target does not meet. Blocked cases say nothing about conformance.</p>
<table><tr><th>plan</th><th>precondition</th><th>blocked cases</th><th>what the harness needs, how to adapt, what it saw</th></tr>
{{range .Incompat}}<tr><td>{{.Plan}}</td><td><code>{{.Precondition}}</code></td><td>{{len .Cases}}: {{range .Cases}}<code>{{.}}</code> {{end}}</td><td>{{.Message}}</td></tr>{{end}}
</table>{{end}}
<h2>Not passing, case by case ({{len .Failures}})</h2>
{{if .R.KnownFailures}}<p>New failures first; {{.R.KnownFailures}} marked <em class="known">{{.Known}}</em> are listed by the run's baseline and do not fail it.</p>{{end}}
{{range .Failures}}<div class="failure" id="{{.Plan}}-{{.ID}}">
<h3><span class="{{.Outcome}}">{{.Outcome}}</span>{{if known .}} <em class="known">{{$.Known}}</em>{{end}} <code>{{.ID}}</code> ({{.Plan}})</h3>
<p><strong>Requirement</strong> ({{.Level}}, section <code>{{.Section}}</code>): {{.Requirement}}</p>
{{if .Source}}<p><strong>Source</strong>: {{.Source}} — {{.Ref}}</p>{{end}}
{{with brokenLine .}}<p><strong>The failure</strong> {{.}}</p>{{end}}
{{if .Reading}}<p><strong>Reading</strong>: {{.Reading}}</p>{{end}}
<p><strong>Expected vs actual</strong>:</p><pre>{{.Message}}</pre>
{{if .Location}}<p>at <code>{{.Location}}</code></p>{{end}}
{{if .Notes}}<p><strong>Notes</strong>:</p><ul>{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}
<p><strong>Reproduce</strong>: <code>{{.Repro}}</code> · <strong>Learn more</strong>: <code>nipcl-conform explain {{.ID}}</code></p>
{{with index $.Transcripts (print .Plan "-" .ID)}}{{if .Key}}<details data-t="{{.Key}}"><summary>Wire transcript ({{.Lines}} lines: the first of them here, all once opened)</summary><pre class="wire">{{.Preview}}</pre></details>{{else if .Text}}<details open><summary>Wire transcript</summary><pre class="wire">{{.Text}}</pre></details>{{end}}{{end}}
</div>{{else}}<p>None.</p>{{end}}
{{if .Coverage}}<h2>Clause coverage</h2>
<table><tr><th>clause</th><th>title</th><th>cases</th><th>results</th></tr>
{{$outs := .Outcomes}}{{range .Coverage}}<tr><td><code>{{.ID}}</code></td><td>{{.Title}}</td><td>{{range .Cases}}<code>{{.}}</code> {{end}}{{.Note}}</td>
<td>{{$o := .Outcomes}}{{range $outs}}{{if count $o .}}<span class="{{.}}">{{.}} {{count $o .}}</span> {{end}}{{end}}</td></tr>{{end}}
</table>{{end}}
<h2 id="all">All cases</h2>
<div class="filters">
Show: <input type="radio" name="fo" id="fo-all" checked><label for="fo-all">every outcome</label>
{{range .Outcomes}}<input type="radio" name="fo" id="fo-{{.}}"><label for="fo-{{.}}" class="{{.}}">{{.}}</label> {{end}}
· whose rule: <input type="radio" name="fs" id="fs-all" checked><label for="fs-all">any</label>
<input type="radio" name="fs" id="fs-nip"><label for="fs-nip">NIP text</label>
<input type="radio" name="fs" id="fs-draft"><label for="fs-draft">NIP-CL draft</label>
<input type="radio" name="fs" id="fs-contract"><label for="fs-contract">target contract</label>
<br>Section: <input type="radio" name="fx" id="fx-all" checked><label for="fx-all">any</label>
{{range .Sections}}<input type="radio" name="fx" id="fx-{{slug .}}"><label for="fx-{{slug .}}">{{.}}</label> {{end}}
<table class="cases"><tr><th>case</th><th>plan</th><th>level</th><th>source</th><th>section</th><th>outcome</th><th>requirement</th></tr>
{{range .R.Cases}}<tr class="o-{{.Outcome}} s-{{.Source}} x-{{slug .Section}}"><td>{{if or (eq .Outcome "fail") (eq .Outcome "timeout") (eq .Outcome "harness-error") (eq .Outcome "blocked")}}<a href="#{{.Plan}}-{{.ID}}"><code>{{.ID}}</code></a>{{else}}<code>{{.ID}}</code>{{end}}</td><td>{{.Plan}}</td><td>{{.Level}}</td><td title="{{.Ref}}">{{.Source}}</td><td>{{.Section}}</td><td class="{{.Outcome}}">{{.Outcome}}{{if known .}} <em class="known">(known)</em>{{end}}</td><td>{{.Requirement}}</td></tr>{{end}}
</table></div>
{{if .Blob}}<script type="application/json" id="nipcl-transcripts">{{.Blob}}</script>
{{.Loader}}{{end}}</body></html>
`))
