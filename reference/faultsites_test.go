package reference

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// faultSite is one place in the relay's (non-test) code that consults a
// fault switch.
type faultSite struct {
	Fault string // switch name
	Const string // the constant naming it
	Pos   string // file:line
}

// faultSites parses the package's non-test Go files and returns the fault
// constants (name → switch) and every consultation of a switch: a call
// r.fault(faultX) or faults.on(faultX). A consultation whose argument is
// not one of the fault constants is returned in bad: it would hide a switch
// from this index.
func faultSites(t *testing.T) (consts map[string]string, sites []faultSite, bad []string) {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var parsed []*ast.File
	consts = map[string]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if !strings.HasPrefix(id.Name, "fault") || i >= len(vs.Values) {
						continue
					}
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, _ := strconv.Unquote(lit.Value)
						consts[id.Name] = v
					}
				}
			}
		}
	}
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch {
			case sel.Sel.Name == "fault":
			case sel.Sel.Name == "on" && strings.HasSuffix(exprString(sel.X), "faults"):
			default:
				return true
			}
			pos := fset.Position(call.Pos())
			where := fmt.Sprintf("%s:%d", pos.Filename, pos.Line)
			id, ok := call.Args[0].(*ast.Ident)
			if !ok || consts[id.Name] == "" {
				bad = append(bad, where+": "+exprString(call))
				return true
			}
			sites = append(sites, faultSite{Fault: consts[id.Name], Const: id.Name, Pos: where})
			return true
		})
	}
	return consts, sites, bad
}

// exprString renders the few expression shapes a consultation uses.
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.CallExpr:
		var args []string
		for _, a := range e.Args {
			args = append(args, exprString(a))
		}
		return exprString(e.Fun) + "(" + strings.Join(args, ", ") + ")"
	case *ast.BasicLit:
		return e.Value
	}
	return fmt.Sprintf("%T", e)
}

// TestEveryFaultIsConsulted enforces what CONTRIBUTING promises about where
// faults live: every fault of the catalogue is consulted in the relay's
// code (r.fault / faults.on with its constant) at least once, every
// consultation names a fault constant (no computed or literal names), and
// every fault constant is in the catalogue. A fault may be consulted at
// several places (one per code path of the behaviour it breaks, e.g. REQ,
// COUNT and live delivery); `go test ./reference -run
// TestEveryFaultIsConsulted -v` lists them.
func TestEveryFaultIsConsulted(t *testing.T) {
	consts, sites, bad := faultSites(t)
	for _, b := range bad {
		t.Errorf("%s: a fault consultation must name a fault constant", b)
	}
	byFault := map[string][]string{}
	for _, s := range sites {
		byFault[s.Fault] = append(byFault[s.Fault], s.Pos)
	}
	inCatalogue := map[string]bool{}
	var lines []string
	for _, f := range Faults() {
		inCatalogue[f.Name] = true
		places := byFault[f.Name]
		if len(places) == 0 {
			t.Errorf("fault %s is in the catalogue but no code consults it (r.fault(...) or faults.on(...) at the behaviour it breaks)", f.Name)
			continue
		}
		sort.Strings(places)
		lines = append(lines, fmt.Sprintf("%-45s %d: %s", f.Name, len(places), strings.Join(places, " ")))
	}
	for name, v := range consts {
		if !inCatalogue[v] {
			t.Errorf("constant %s = %q names no fault of the catalogue (add it to a fault table or remove it)", name, v)
		}
	}
	t.Logf("fault consultations (fault, count: places):\n%s", strings.Join(lines, "\n"))
}
