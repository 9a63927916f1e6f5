package suites

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// suitesPath is the import path of this package; the framework and the
// scenario packages live under it.
const suitesPath = "github.com/nipcl/nipcl-conform/suites"

// TestPackageLayout keeps the package graph of the suites: the framework
// imports no suites package; each scenario package (nip29, identity,
// labels) imports the framework and the read-matrix engine, never another
// scenario package; the read-matrix engine imports only the framework.
func TestPackageLayout(t *testing.T) {
	allowed := map[string][]string{
		"framework":  nil,
		"readmatrix": {"framework"},
		"nip29":      {"framework", "readmatrix"},
		"identity":   {"framework", "readmatrix"},
		"labels":     {"framework", "readmatrix"},
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "testdata" {
			continue
		}
		ok, known := allowed[e.Name()]
		if !known {
			t.Errorf("suites/%s: a package the layout test does not know; add it to allowed with what it may import", e.Name())
			continue
		}
		files, _ := filepath.Glob(filepath.Join(e.Name(), "*.go"))
		for _, f := range files {
			parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range parsed.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if path != suitesPath && !strings.HasPrefix(path, suitesPath+"/") {
					continue
				}
				dep := strings.TrimPrefix(strings.TrimPrefix(path, suitesPath), "/")
				if dep == "" {
					dep = "suites"
				}
				permitted := false
				for _, a := range ok {
					permitted = permitted || a == dep
				}
				if !permitted {
					t.Errorf("%s imports suites/%s; suites/%s may import only %v", f, dep, e.Name(), ok)
				}
			}
		}
	}
}

// globalGomega finds an assertion on the process-wide Gomega: a bare
// Expect, Eventually or Consistently call.
var globalGomega = regexp.MustCompile(`(^|[^\w.])(Expect|Eventually|Consistently)\(`)

// TestCasesUseTheirOwnGomega: case code asserts with the case's own
// Gomega (t.Expect, t.Eventually, t.Within, or the g of a polled
// condition), whose failures are worded per case; never with the
// process-wide one.
func TestCasesUseTheirOwnGomega(t *testing.T) {
	files, _ := filepath.Glob("*/*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if globalGomega.MatchString(code) && !strings.Contains(code, "func (t *T)") {
				t.Errorf("%s:%d: assertion on the process-wide Gomega: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
