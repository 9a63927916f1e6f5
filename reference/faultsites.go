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
// a call r.fault(faultX) or faults.on(faultX) (a point check), or, for a
// fault whose row carries an install func, a statement of that func that
// joins a hook slice (Hook names it: "hooks.okText") or sets relay state
// its hooks read.
type FaultSite struct {
	Fault string // switch name
	Const string // the constant naming it (faultX)
	Func  string // the function consulting it: "Type.method" or "func"
	Pos   string // "reference/file.go:line"
	Hook  string // installed faults: what the install func sets ("hooks.X"); "" for a point check
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
	funcs := map[string]*ast.FuncDecl{}
	vars := map[string]*ast.ValueSpec{}
	for _, f := range parsed {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body == nil {
					continue
				}
				sc.consultations(fset, d)
				if d.Recv == nil {
					funcs[d.Name.Name] = d
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, spec := range d.Specs {
					if vs := spec.(*ast.ValueSpec); len(vs.Names) == 1 {
						vars[vs.Names[0].Name] = vs
					}
				}
			}
		}
	}
	for _, f := range parsed {
		sc.installs(fset, f, funcs, vars)
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

// installs adds the sites of the install funcs that fault rows in f carry
// ({Name: faultX, …, install: F}). F is a func literal or a function
// (fault-specific: a site is each statement that assigns to the relay,
// r.hooks.X = append(r.hooks.X, …) or r.field = …), or a package variable
// or call built by a shared helper (editState(…)): then the site is the
// variable (or the row) and Hook each hook slice the helper joins.
func (sc *faultScan) installs(fset *token.FileSet, f *ast.File, funcs map[string]*ast.FuncDecl, vars map[string]*ast.ValueSpec) {
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		var name string
		var inst ast.Expr
		for _, el := range lit.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			key, _ := kv.Key.(*ast.Ident)
			switch {
			case key == nil:
			case key.Name == "Name":
				if id, ok := kv.Value.(*ast.Ident); ok {
					name = id.Name
				}
			case key.Name == "install":
				inst = kv.Value
			}
		}
		if name == "" || inst == nil || sc.consts[name] == "" {
			return true
		}
		fn, at, own := "faultSpec.install", inst.Pos(), true
		var body *ast.BlockStmt
		called := func(e ast.Expr) {
			if call, ok := e.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok && funcs[id.Name] != nil {
					body, own = funcs[id.Name].Body, false
				}
			}
		}
		switch e := inst.(type) {
		case *ast.FuncLit:
			body = e.Body
		case *ast.Ident:
			if fd := funcs[e.Name]; fd != nil {
				fn, body = fd.Name.Name, fd.Body
			} else if vs := vars[e.Name]; vs != nil && len(vs.Values) == 1 {
				fn, at = e.Name, vs.Pos()
				if fl, ok := vs.Values[0].(*ast.FuncLit); ok {
					body = fl.Body
				} else {
					called(vs.Values[0])
				}
			}
		case *ast.CallExpr:
			if id, ok := e.Fun.(*ast.Ident); ok {
				fn = id.Name
			}
			called(e)
		}
		site := func(p token.Pos, hook string) {
			pos := fset.Position(p)
			sc.sites = append(sc.sites, FaultSite{Fault: sc.consts[name], Const: name, Func: fn,
				Pos: fmt.Sprintf("%s:%d", pos.Filename, pos.Line), Hook: hook})
		}
		found := map[string]bool{}
		if body != nil {
			ast.Inspect(body, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok {
					return true
				}
				for _, lhs := range as.Lhs {
					target := exprString(lhs)
					if !strings.HasPrefix(target, "r.") {
						continue
					}
					hook := strings.TrimPrefix(target, "r.")
					if !own && found[hook] {
						break
					}
					found[hook] = true
					if own {
						site(as.Pos(), hook)
					} else {
						site(at, hook)
					}
					break
				}
				return true
			})
		}
		if len(found) == 0 {
			site(at, "install")
		}
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
	case *ast.IndexExpr:
		return exprString(e.X) + "[" + exprString(e.Index) + "]"
	}
	return fmt.Sprintf("%T", e)
}
