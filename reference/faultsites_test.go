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
	Func  string // the function consulting it: "Type.method" or "func"
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
						if typ, ok := vs.Type.(*ast.Ident); !ok || typ.Name != "FaultName" || !faultTableFiles[name] {
							bad = append(bad, fmt.Sprintf("%s: constant %s: a fault name is a FaultName constant in its profile's table file (faults_nip29.go, faults_identity.go, faults_labels.go)", name, id.Name))
						}
					}
				}
			}
		}
	}
	for _, f := range parsed {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				sites, bad = consultations(fset, fd, consts, sites, bad)
			}
		}
	}
	return consts, sites, bad
}

// faultTableFiles are the files of the fault tables, where every fault
// name constant lives.
var faultTableFiles = map[string]bool{"faults_nip29.go": true, "faults_identity.go": true, "faults_labels.go": true}

// funcName names a function declaration as a fault table's In does:
// "Type.method" or "func".
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	return exprString(t) + "." + fd.Name.Name
}

// consultations appends the fault consultations inside fd (closures
// included) to sites, and those that do not name a fault constant to bad.
func consultations(fset *token.FileSet, fd *ast.FuncDecl, consts map[string]string, sites []faultSite, bad []string) ([]faultSite, []string) {
	fn := funcName(fd)
	ast.Inspect(fd.Body, func(n ast.Node) bool {
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
		sites = append(sites, faultSite{Fault: consts[id.Name], Const: id.Name, Func: fn, Pos: where})
		return true
	})
	return sites, bad
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
// faults live: every fault of the tables is consulted in the relay's code
// (r.fault / faults.on with its constant) exactly in the functions its
// row's In names, every consultation names a fault constant (no computed
// or literal names), and every fault constant is a FaultName in a table
// file and in a table. A fault may be consulted at several places (one per
// code path of the behaviour it breaks, e.g. REQ, COUNT and live
// delivery); `go test ./reference -run TestEveryFaultIsConsulted -v` lists
// them.
func TestEveryFaultIsConsulted(t *testing.T) {
	consts, sites, bad := faultSites(t)
	for _, b := range bad {
		t.Errorf("%s: a fault consultation must name a fault constant", b)
	}
	byFault := map[string][]string{}
	funcs := map[string]map[string]bool{}
	for _, s := range sites {
		byFault[s.Fault] = append(byFault[s.Fault], s.Pos)
		if funcs[s.Fault] == nil {
			funcs[s.Fault] = map[string]bool{}
		}
		funcs[s.Fault][s.Func] = true
	}
	inTable := map[string]bool{}
	var lines []string
	for _, tb := range faultTables {
		for _, f := range tb.faults {
			name := string(f.Name)
			inTable[name] = true
			places := byFault[name]
			if len(places) == 0 {
				t.Errorf("fault %s is in a table but no code consults it (r.fault(...) or faults.on(...) at the behaviour it breaks)", name)
				continue
			}
			var in []string
			for fn := range funcs[name] {
				in = append(in, fn)
			}
			sort.Strings(in)
			if got := strings.Join(in, ", "); got != f.In {
				t.Errorf("fault %s: its row says In: %q, but the code consults it in %q (%s)", name, f.In, got, strings.Join(places, " "))
			}
			sort.Strings(places)
			lines = append(lines, fmt.Sprintf("%-45s %d: %s", name, len(places), strings.Join(places, " ")))
		}
	}
	for name, v := range consts {
		if !inTable[v] {
			t.Errorf("constant %s = %q names no fault of the tables (add it to a fault table or remove it)", name, v)
		}
	}
	t.Logf("fault consultations (fault, count: places):\n%s", strings.Join(lines, "\n"))
}
