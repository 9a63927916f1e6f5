package suites

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// TestFailuresNameTheirCasesClauses: every clause a failure site names
// (t.Violates(clause, …), t.Checking(clause)) is a testable clause that
// every case reaching the site may break (framework.MayBreak: one of its
// Clauses, or a clause of its section a shared step breaks). A case
// reaches the sites of its Spec's Run body and of the functions of its
// package that body calls, transitively. A shared check's t.Invariant
// may name any testable clause. The framework also checks at run time (a harness error),
// but only on the path the relay drove; this check covers every path.
func TestFailuresNameTheirCasesClauses(t *testing.T) {
	caseID := regexp.MustCompile(`^(base|identity|labels)/[a-z0-9-]+/[0-9]+$`)
	for _, pkg := range []string{"nip29", "identity", "labels", "readmatrix"} {
		files, _ := filepath.Glob(filepath.Join(pkg, "*.go"))
		fset := token.NewFileSet()
		var parsed []*ast.File
		for _, f := range files {
			if filepath.Ext(f) != ".go" || len(f) > 8 && f[len(f)-8:] == "_test.go" {
				continue
			}
			p, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, p)
		}
		// named: the clauses a node names directly; calls: the package's
		// functions it calls.
		type site struct {
			clause    string
			pos       token.Position
			invariant bool // t.Invariant: any testable clause
		}
		scan := func(n ast.Node) (named []site, calls []string) {
			ast.Inspect(n, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				switch fun := call.Fun.(type) {
				case *ast.Ident:
					calls = append(calls, fun.Name)
				case *ast.SelectorExpr:
					if (fun.Sel.Name == "Violates" || fun.Sel.Name == "Checking" || fun.Sel.Name == "Invariant") && len(call.Args) > 0 {
						lit, ok := call.Args[0].(*ast.BasicLit)
						if !ok {
							break // a clause chosen at run time: the runtime check holds it
						}
						id, _ := strconv.Unquote(lit.Value)
						named = append(named, site{id, fset.Position(lit.Pos()), fun.Sel.Name == "Invariant"})
					}
				}
				return true
			})
			return named, calls
		}
		funcs := map[string]*ast.FuncDecl{}
		for _, f := range parsed {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
					funcs[fd.Name.Name] = fd
				}
			}
		}
		// reach: the clauses named in n and in every package function it
		// calls, transitively.
		reach := func(n ast.Node) []site {
			var out []site
			seen := map[string]bool{}
			queue := []ast.Node{n}
			for len(queue) > 0 {
				named, calls := scan(queue[0])
				queue = queue[1:]
				out = append(out, named...)
				for _, c := range calls {
					if fd := funcs[c]; fd != nil && !seen[c] {
						seen[c] = true
						queue = append(queue, fd.Body)
					}
				}
			}
			return out
		}
		for _, f := range parsed {
			// Every named clause exists and is testable.
			named, _ := scan(f)
			for _, s := range named {
				if cl, ok := clause.LookupClause(s.clause); !ok || !cl.Testable {
					t.Errorf("%s: %q is not a testable clause", s.pos, s.clause)
				}
			}
			// Every Spec literal: the clauses its Run reaches are its case's.
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok {
					return true
				}
				var run ast.Node
				id := ""
				for _, e := range lit.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					key, _ := kv.Key.(*ast.Ident)
					if key == nil {
						continue
					}
					switch key.Name {
					case "Run":
						run = kv.Value
					case "Case":
						ast.Inspect(kv.Value, func(n ast.Node) bool {
							if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING && id == "" {
								if s, _ := strconv.Unquote(b.Value); caseID.MatchString(s) {
									id = s
								}
							}
							return id == ""
						})
					}
				}
				if run == nil || id == "" {
					return true
				}
				c, ok := Lookup(id)
				if !ok {
					return true
				}
				var wrong []string
				for _, s := range reach(run) {
					if !s.invariant && !framework.MayBreak(c, s.clause) {
						wrong = append(wrong, s.pos.String()+": "+s.clause)
					}
				}
				sort.Strings(wrong)
				for _, w := range slices.Compact(wrong) {
					t.Errorf("case %s (clauses %v) can fail at a clause it does not cite: %s", id, c.Clauses, w)
				}
				return false
			})
		}
	}
}
