package reports

import (
	"bytes"
	"html"
	"strings"
	"testing"
)

// twoImplementations is the results of two independent relays: "alpha"
// passes everything it ran, "beta" fails one case, is blocked on another
// and never ran a third.
func twoImplementations() []MatrixSource {
	mk := func(plan, id, section string, o Outcome) CaseResult {
		return CaseResult{ID: id, Plan: plan, Profile: "nip29", Section: section, Level: "MUST", Source: "nip", Ref: "NIP-29 §" + section,
			Requirement: "req of " + id, Outcome: o}
	}
	alpha := &Results{RunID: "run-a", Plans: []PlanResult{{Name: "nip29", Target: "ws://alpha", Profile: "nip29"}},
		Cases: []CaseResult{
			mk("nip29", "base/join/1", "nip29/join", Pass),
			mk("nip29", "base/join/2", "nip29/join", Pass),
			mk("nip29", "base/leave/1", "nip29/leave", Pass),
			mk("nip29", "base/meta/1", "nip29/metadata", Pass),
		}}
	failing := mk("nip29 suites @ beta", "base/join/2", "nip29/join", Fail)
	failing.Message = "expected OK true\ngot false"
	failing.Notes = []string{"relay answered \"blocked: not a member\""}
	failing.Transcript = "+0.001s owner -> [\"EVENT\",{\"kind\":9021}]\n+0.004s owner <- [\"OK\",\"ab\",false,\"<nope>\"]\n"
	blocked := mk("nip29 suites @ beta", "base/leave/1", "nip29/leave", Blocked)
	blocked.Precondition = "contract/create-group"
	blocked.Message = "incompatible: the relay did not let the harness create a group"
	beta := &Results{RunID: "run-b", Plans: []PlanResult{{Name: "nip29 suites @ beta", Target: "ws://beta", Profile: "nip29"}},
		Cases: []CaseResult{
			mk("nip29 suites @ beta", "base/join/1", "nip29/join", Pass),
			failing,
			blocked,
		}}
	return []MatrixSource{{Name: "alpha", Origin: "a/results.json", Results: alpha}, {Name: "beta", Origin: "ws://beta", Results: beta}}
}

func TestBuildMatrixTwoResultSets(t *testing.T) {
	m := BuildMatrix(twoImplementations()...)
	if len(m.Groups) != 2 || m.Groups[0].Name != "alpha" || m.Groups[1].Name != "beta" || m.Groups[0].Columns != 1 || m.Groups[1].Columns != 1 {
		t.Fatalf("groups %+v", m.Groups)
	}
	if len(m.Columns) != 2 || m.Columns[0].Heading() != "alpha · nip29" || m.Columns[1].Heading() != "beta · nip29" {
		t.Fatalf("columns %+v", m.Columns)
	}
	var ids []string
	for _, r := range m.Rows {
		ids = append(ids, r.ID)
	}
	if got, want := strings.Join(ids, " "), "base/join/1 base/join/2 base/leave/1 base/meta/1"; got != want {
		t.Errorf("rows %s, want %s (by section, then ID)", got, want)
	}
	if s := m.Sections(); len(s) != 3 || s[0].Name != "nip29/join" || len(s[0].Rows) != 2 {
		t.Errorf("sections %+v", s)
	}
	cell := func(id string, col int) MatrixCell {
		for _, r := range m.Rows {
			if r.ID == id {
				return r.Cells[col]
			}
		}
		t.Fatalf("no row %s", id)
		return MatrixCell{}
	}
	if c := cell("base/leave/1", 1); c.Outcome != Blocked || c.Anchor == "" {
		t.Errorf("beta base/leave/1 = %+v, want blocked with a detail anchor", c)
	}
	if c := cell("base/join/2", 1); c.Outcome != Fail || c.Anchor == "" || c.Message != "expected OK true" {
		t.Errorf("beta base/join/2 = %+v, want fail with anchor and first message line", c)
	}
	if c := cell("base/join/2", 0); c.Outcome != Pass || c.Anchor != "" {
		t.Errorf("alpha base/join/2 = %+v, want pass without detail", c)
	}
	if c := cell("base/meta/1", 1); c.Outcome != "" {
		t.Errorf("beta never ran base/meta/1, cell %+v", c)
	}
	if r := m.Rows[0]; r.Source != "nip" || r.Level != "MUST" || r.Ref == "" {
		t.Errorf("row metadata %+v", r)
	}
	beta := m.Columns[1]
	if beta.Counts[Pass] != 1 || beta.Counts[Fail] != 1 || beta.Counts[Blocked] != 1 {
		t.Errorf("beta counts %v", beta.Counts)
	}
	if len(beta.Details) != 2 || beta.Details[0].ID != "base/join/2" || beta.Details[1].Precondition != "contract/create-group" {
		t.Errorf("beta details %+v", beta.Details)
	}
	if len(m.Columns[0].Details) != 0 {
		t.Errorf("alpha has details %+v", m.Columns[0].Details)
	}
	seen := map[string]bool{}
	for _, a := range []string{m.Columns[0].Anchor, m.Columns[1].Anchor, beta.Details[0].Anchor, beta.Details[1].Anchor, m.Rows[0].Anchor} {
		if a == "" || seen[a] {
			t.Errorf("anchor %q empty or repeated", a)
		}
		seen[a] = true
	}
}

func TestBuildMatrixLabelsRepeatedProfilesByPlan(t *testing.T) {
	r := &Results{Plans: []PlanResult{{Name: "labels suites @ nip29 relay", Profile: "labels"}, {Name: "labels suites @ labels relay", Profile: "labels"}},
		Cases: []CaseResult{{ID: "x/1", Plan: "labels suites @ labels relay", Outcome: Pass}}}
	m := BuildMatrix(MatrixSource{Name: "ref", Results: r})
	if len(m.Columns) != 2 || m.Columns[0].Label != "labels suites @ nip29 relay" {
		t.Errorf("columns %+v", m.Columns)
	}
}

func TestMatrixPlanSubset(t *testing.T) {
	r := &Results{RunID: "x", Plans: []PlanResult{{Name: "a"}, {Name: "b"}},
		Cases: []CaseResult{{ID: "1", Plan: "a"}, {ID: "1", Plan: "b"}, {ID: "2", Plan: "b"}}}
	s := PlanSubset(r, "b")
	if s.RunID != "x" || len(s.Plans) != 1 || s.Plans[0].Name != "b" || len(s.Cases) != 2 || len(r.Cases) != 3 {
		t.Errorf("subset %+v of %+v", s, r)
	}
}

func TestMatrixHTMLLinksCellsToDetails(t *testing.T) {
	m := BuildMatrix(twoImplementations()...)
	var buf bytes.Buffer
	if err := WriteMatrixHTML(&buf, m); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	var fail, blocked MatrixDetail
	for _, d := range m.Columns[1].Details {
		switch d.Outcome {
		case Fail:
			fail = d
		case Blocked:
			blocked = d
		}
	}
	for _, d := range []MatrixDetail{fail, blocked} {
		if !strings.Contains(page, `href="#`+d.Anchor+`"`) {
			t.Errorf("no link to %s's detail #%s", d.ID, d.Anchor)
		}
		if !strings.Contains(page, `id="`+d.Anchor+`"`) {
			t.Errorf("no detail anchored %s", d.Anchor)
		}
	}
	// The detail holds the transcript (escaped), the notes and the message.
	detail := page[strings.Index(page, `id="`+fail.Anchor+`"`):]
	detail = html.UnescapeString(detail[:strings.Index(detail, "</div>")])
	for _, want := range []string{
		`+0.004s owner <- ["OK","ab",false,"<nope>"]`,
		`relay answered "blocked: not a member"`,
		"expected OK true\ngot false",
	} {
		if !strings.Contains(detail, want) {
			t.Errorf("detail of %s lacks %q", fail.ID, want)
		}
	}
	if strings.Contains(page, `"<nope>"`) {
		t.Error("transcript is not escaped")
	}
	if !strings.Contains(page, "contract/create-group") {
		t.Error("blocked detail lacks its precondition")
	}
	for _, want := range []string{`class="o blocked"`, ".blocked{", "Legend", "alpha", "beta", "1 blocked", "nip29/leave"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"<script", "<link", "src=", "http://", "https://"} {
		if strings.Contains(page, bad) {
			t.Errorf("page is not self-contained: has %q", bad)
		}
	}
}

func TestMatrixMarkdownHasAColumnPerImplementation(t *testing.T) {
	m := BuildMatrix(twoImplementations()...)
	m.HTMLFile = "matrix.html"
	var buf bytes.Buffer
	if err := WriteMatrixMarkdown(&buf, m); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	var header string
	var body []string
	for _, l := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(l, "| case |"):
			header = l
		case header != "" && strings.HasPrefix(l, "| `"):
			body = append(body, l)
		}
	}
	if !strings.Contains(header, "| alpha · nip29 |") || !strings.Contains(header, "| beta · nip29 |") {
		t.Errorf("header %q lacks a column per implementation", header)
	}
	if len(body) != 4 {
		t.Fatalf("%d case rows, want 4:\n%s", len(body), md)
	}
	for _, l := range body {
		if n := strings.Count(l, "|"); n != strings.Count(header, "|") {
			t.Errorf("row %q has %d cells, header %d", l, n, strings.Count(header, "|"))
		}
	}
	if want := "| `base/leave/1` | MUST | nip | nip29/leave | pass | blocked |"; !strings.Contains(md, want) {
		t.Errorf("markdown lacks %q:\n%s", want, md)
	}
	if want := "| `base/meta/1` | MUST | nip | nip29/metadata | pass | — |"; !strings.Contains(md, want) {
		t.Errorf("markdown lacks %q:\n%s", want, md)
	}
	if !strings.Contains(md, "`matrix.html`") {
		t.Error("markdown does not name the detail file")
	}
}
