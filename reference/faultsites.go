package reference

import (
	"embed"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// source is the relay's own code, so that a binary can tell where it
// consults each fault switch (FaultSites) without a checkout beside it.
//
//go:embed *.go
var source embed.FS

// FaultSite is one place in the relay's code that consults a fault switch:
// a call r.fault(faultX) or faults.on(faultX).
type FaultSite struct {
	Fault string // switch name
	Const string // the constant naming it (faultX)
	Func  string // the function consulting it: "Type.method" or "func"
	Pos   string // "reference/file.go:line"
}

// faultScan is what scanning the relay's code found: the fault constants
// (constant → switch name), every consultation, and the problems that
// would hide a switch from the index (a consultation whose argument is no
// fault constant; a fault constant that is not a FaultName of a table
// file).
type faultScan struct {
	consts map[string]string
	sites  []FaultSite
	bad    []string
}

// faultTableFiles are the files of the fault tables, where every fault
// name constant lives.
var faultTableFiles = map[string]bool{"faults_nip29.go": true, "faults_identity.go": true, "faults_labels.go": true}

var scanFaultSites = sync.OnceValues(func() (faultScan, error) { return scanFaults(source) })

// FaultSites returns, for each fault switch, the places of the relay's
// code that consult it, in file and line order.
func FaultSites() (map[string][]FaultSite, error) {
	sc, err := scanFaultSites()
	if err != nil {
		return nil, err
	}
	out := map[string][]FaultSite{}
	for _, s := range sc.sites {
		out[s.Fault] = append(out[s.Fault], s)
	}
	return out, nil
}

// scanFaults parses the package's non-test Go files in fsys.
func scanFaults(fsys fs.FS) (faultScan, error) {
	sc := faultScan{consts: map[string]string{}}
	names, err := fs.Glob(fsys, "*.go")
	if err != nil {
		return sc, err
	}
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return sc, err
		}
		f, err := parser.ParseFile(fset, path.Join("reference", name), src, 0)
		if err != nil {
			return sc, err
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
						sc.consts[id.Name] = v
						if typ, ok := vs.Type.(*ast.Ident); !ok || typ.Name != "FaultName" || !faultTableFiles[name] {
							sc.bad = append(sc.bad, fmt.Sprintf("reference/%s: constant %s: a fault name is a FaultName constant in its profile's table file (faults_nip29.go, faults_identity.go, faults_labels.go)", name, id.Name))
						}
					}
				}
			}
		}
	}
	for _, f := range parsed {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				sc.consultations(fset, fd)
			}
		}
	}
	sort.SliceStable(sc.sites, func(i, j int) bool { return posLess(sc.sites[i].Pos, sc.sites[j].Pos) })
	return sc, nil
}

// posLess orders "file:line" positions by file, then numerically by line.
func posLess(a, b string) bool {
	fa, la, _ := strings.Cut(a, ":")
	fb, lb, _ := strings.Cut(b, ":")
	if fa != fb {
		return fa < fb
	}
	na, _ := strconv.Atoi(la)
	nb, _ := strconv.Atoi(lb)
	return na < nb
}

// funcName names a function declaration: "Type.method" or "func".
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

// consultations adds the fault consultations inside fd (closures
// included) to sc.sites, and those that do not name a fault constant to
// sc.bad.
func (sc *faultScan) consultations(fset *token.FileSet, fd *ast.FuncDecl) {
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
		if !ok || sc.consts[id.Name] == "" {
			sc.bad = append(sc.bad, where+": "+exprString(call))
			return true
		}
		sc.sites = append(sc.sites, FaultSite{Fault: sc.consts[id.Name], Const: id.Name, Func: fn, Pos: where})
		return true
	})
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
