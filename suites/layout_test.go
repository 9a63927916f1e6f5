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

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/suites/framework"
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

// scenarioDirs are the scenario packages, by the profile of their cases.
var scenarioDirs = map[string]string{
	framework.ProfileBaseline: "nip29",
	framework.ProfileIdentity: "identity",
	framework.ProfileLabels:   "labels",
}

// TestOneGroupingPerCase: a case has one grouping. Its Section is its main
// clause's (framework.NewCase), its Area is the section's slug, and it is
// defined in the section's file (framework.SectionFile) of its profile's
// package; a case ID minted after the golden catalogue was frozen reads
// <profile>/<section-slug>/<n>.
func TestOneGroupingPerCase(t *testing.T) {
	golden := goldenIDs(t)
	agree := 0
	cases := Catalogue()
	for _, c := range cases {
		file, _, _ := strings.Cut(c.Where, ":")
		want := "suites/" + scenarioDirs[c.Profile] + "/" + framework.SectionFile(c.Section)
		ok := true
		if file != want {
			t.Errorf("%s (section %s) is defined in %s; it belongs in %s", c.ID, c.Section, c.Where, want)
			ok = false
		}
		if c.Area != framework.SectionArea(c.Section) {
			t.Errorf("%s: area %q is not its section's (%s)", c.ID, c.Area, c.Section)
			ok = false
		}
		if want := framework.ProfilePrefix(c.Profile) + framework.SectionArea(c.Section) + "/"; !golden[c.ID] && !strings.HasPrefix(c.ID, want) {
			t.Errorf("%s: a new case ID reads %s<n>", c.ID, want)
			ok = false
		}
		if ok {
			agree++
		}
	}
	t.Logf("%d of %d cases: file, section and area agree", agree, len(cases))
}

// goldenIDs are the case IDs of testdata/catalogue.golden.
func goldenIDs(t *testing.T) map[string]bool {
	data, err := os.ReadFile("testdata/catalogue.golden")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, _, _ := strings.Cut(line, "\t")
		ids[id] = true
	}
	return ids
}

// builderDecl finds the declaration of a case builder.
var builderDecl = regexp.MustCompile(`(?m)^func (\w+)\(\) \[\]framework\.Spec \{`)

// TestOneBuilderPerFile: a scenario package's files are its section files,
// each with one builder named by it (read_access.go holds
// readAccessSpecs), its helpers.go (which holds Specs) and helpers_*.go
// files, which hold no case. Each builder is declared once and called once
// (by Specs): grep finds every builder once.
func TestOneBuilderPerFile(t *testing.T) {
	sections := map[string]bool{}
	for _, s := range clause.Sections() {
		sections[framework.SectionFile(s.ID)] = true
	}
	casesIn := map[string]int{}
	for _, c := range Catalogue() {
		file, _, _ := strings.Cut(c.Where, ":")
		casesIn[file]++
	}
	for _, dir := range scenarioDirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		var all strings.Builder
		var builders []string
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			all.Write(src)
			base := filepath.Base(f)
			var decls [][]string
			for _, d := range builderDecl.FindAllStringSubmatch(string(src), -1) {
				if d[1] != "Specs" {
					decls = append(decls, d)
				}
			}
			if base == "helpers.go" || strings.HasPrefix(base, "helpers_") {
				if n := casesIn["suites/"+filepath.ToSlash(f)]; n > 0 || len(decls) > 0 {
					t.Errorf("%s is a helper file but defines %d cases and %d builders", f, n, len(decls))
				}
				continue
			}
			if !sections[base] {
				t.Errorf("%s is named after no section (clause.Sections, framework.SectionFile) nor helpers", f)
			}
			want := builderName(base)
			if len(decls) != 1 || decls[0][1] != want {
				t.Errorf("%s: want one builder, %s; found %v", f, want, decls)
			}
			if casesIn["suites/"+filepath.ToSlash(f)] == 0 {
				t.Errorf("%s: a section file with no case", f)
			}
			builders = append(builders, want)
		}
		for _, b := range builders {
			if n := strings.Count(all.String(), b+"()"); n != 2 {
				t.Errorf("suites/%s: %s() appears %d times; want its declaration and one call in Specs", dir, b, n)
			}
		}
	}
}

// builderName is the builder of a section file: read_access.go ->
// readAccessSpecs.
func builderName(file string) string {
	parts := strings.Split(strings.TrimSuffix(file, ".go"), "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "") + "Specs"
}

// caseIDPattern matches a case ID ("base/state/3").
var caseIDPattern = regexp.MustCompile(`\b(base|identity|labels)/[a-z0-9-]+/[0-9]+\b`)

// TestFrameworkKnowsNoProfile: suites/framework holds no case and no
// profile's rule. Its files name no case ID (a case declares what it needs:
// FreshKeys, Refusal, CurrentHead), and no file but case.go, which defines
// the profile names, names a NIP-CL profile; TestPackageLayout keeps it
// from importing a scenario package.
func TestFrameworkKnowsNoProfile(t *testing.T) {
	files, _ := filepath.Glob("framework/*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if id := caseIDPattern.FindString(line); id != "" {
				t.Errorf("%s:%d names case %s; let the case declare what it needs", f, i+1, id)
			}
			if filepath.Base(f) != "case.go" && regexp.MustCompile(`\bProfile(Labels|Identity)\b`).MatchString(line) {
				t.Errorf("%s:%d: a rule of one profile in the framework: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
