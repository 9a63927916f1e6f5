package clause

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestClauseIDsUniqueAndSectionsKnown(t *testing.T) {
	seen := map[string]bool{}
	numbers := map[string][]int{}
	for _, c := range Clauses() {
		if seen[c.ID] {
			t.Errorf("duplicate clause ID %s", c.ID)
		}
		seen[c.ID] = true
		sec, n, ok := SplitClauseID(c.ID)
		if !ok {
			t.Errorf("%s: ID is not <section>.<n>", c.ID)
			continue
		}
		if sec != c.Section {
			t.Errorf("%s: ID names section %q but Section is %q", c.ID, sec, c.Section)
		}
		if _, ok := Lookup(c.Section); !ok {
			t.Errorf("%s: unknown section %q", c.ID, c.Section)
		}
		numbers[sec] = append(numbers[sec], n)
		switch c.Level {
		case LevelMust, LevelMustNot, LevelShould, LevelShouldNot, LevelMay, LevelRule:
		default:
			t.Errorf("%s: level %q", c.ID, c.Level)
		}
		switch c.Subject {
		case SubjectRelay:
		case SubjectClient:
			if c.Testable {
				t.Errorf("%s: a client obligation cannot be testable by a relay harness", c.ID)
			}
		default:
			t.Errorf("%s: subject %q", c.ID, c.Subject)
		}
		if strings.TrimSpace(c.Text) == "" || strings.Contains(c.Text, "\n") {
			t.Errorf("%s: text must be one non-empty line", c.ID)
		}
		if c.Testable && c.Reason != "" {
			t.Errorf("%s: testable clause carries a not-testable reason", c.ID)
		}
		if !c.Testable && strings.TrimSpace(c.Reason) == "" {
			t.Errorf("%s: not-testable clause without a reason", c.ID)
		}
		if got, ok := LookupClause(c.ID); !ok || !reflect.DeepEqual(got, c) {
			t.Errorf("LookupClause(%s) = %v, %v", c.ID, got, ok)
		}
	}
	// Numbers run 1..n within each section, so a gap means a lost clause.
	for sec, ns := range numbers {
		have := map[int]bool{}
		for _, n := range ns {
			have[n] = true
		}
		for i := 1; i <= len(ns); i++ {
			if !have[i] {
				t.Errorf("section %s: clause numbers are not 1..%d (missing %d)", sec, len(ns), i)
				break
			}
		}
	}
	if _, ok := LookupClause("labels/snapshot"); ok {
		t.Error("a section ID must not resolve as a clause")
	}
}

func TestEveryDraftSectionHasClauses(t *testing.T) {
	for _, s := range Sections() {
		if s.Doc != DocIdentity && s.Doc != DocLabels {
			continue
		}
		if len(SectionClauses(s.ID)) == 0 {
			t.Errorf("section %s has no clauses", s.ID)
		}
	}
}

func TestClauseOrderIsNumeric(t *testing.T) {
	var prev string
	for _, c := range Clauses() {
		if prev != "" && !clauseLess(prev, c.ID) {
			t.Errorf("%s listed after %s", c.ID, prev)
		}
		prev = c.ID
	}
	if !clauseLess("labels/scope.2", "labels/scope.10") {
		t.Error("labels/scope.2 must sort before labels/scope.10")
	}
}

// TestEveryClauseHasASource: every clause says whose rule it is and where
// its sentence stands; a contract clause never carries a NIP's level (it
// is RULE, and it blocks rather than fails), and a nip clause names a NIP.
func TestEveryClauseHasASource(t *testing.T) {
	for _, c := range Clauses() {
		switch c.Source {
		case SourceNIP:
			if !strings.HasPrefix(c.Ref, "NIP-") {
				t.Errorf("%s: a nip clause's Ref must name the NIP, got %q", c.ID, c.Ref)
			}
		case SourceDraft:
			if !strings.HasPrefix(c.Ref, DocIdentity) && !strings.HasPrefix(c.Ref, DocLabels) {
				t.Errorf("%s: a draft clause's Ref must name the draft, got %q", c.ID, c.Ref)
			}
		case SourceContract:
			if c.Level != LevelRule {
				t.Errorf("%s: a contract clause must not claim a requirement level (%s): no NIP requires it", c.ID, c.Level)
			}
			if !strings.HasPrefix(c.Ref, "harness:") {
				t.Errorf("%s: a contract clause's Ref must say what the harness needs it for (\"harness: …\"), got %q", c.ID, c.Ref)
			}
		default:
			t.Errorf("%s: source %q is not nip, draft or contract", c.ID, c.Source)
		}
	}
}

// TestClauseTablesUseConstructors: every row of a clause table is made by
// its document's constructor (nip29(…), identityDraft(…), contract(…) …),
// which derives the section, source and anchors; a Clause{…} literal row
// (the shape before issue 40) would carry none of them.
func TestClauseTablesUseConstructors(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "clauses.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		rows := 0
		ast.Inspect(f, func(n ast.Node) bool {
			if cl, ok := n.(*ast.CompositeLit); ok {
				if id, ok := cl.Type.(*ast.Ident); ok && id.Name == "Clause" {
					rows++
				}
				if at, ok := cl.Type.(*ast.ArrayType); ok {
					if id, ok := at.Elt.(*ast.Ident); ok && id.Name == "Clause" {
						for _, el := range cl.Elts {
							if _, ok := el.(*ast.CompositeLit); ok {
								rows++
							}
						}
					}
				}
			}
			return true
		})
		if rows > 0 {
			t.Errorf("%s: %d Clause{…} rows; make them with the document's constructor (go run ./clause/internal/rowconv %s)", name, rows, filepath.Join("clause", name))
		}
	}
}
