package reference

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestEveryFaultIsConsulted enforces what CONTRIBUTING promises about where
// faults live: every fault of the tables is consulted in the relay's code
// (r.fault / faults.on with its constant), every consultation names a
// fault constant (no computed or literal names), and every fault constant
// is a FaultName in a table file and in a table. A fault may be consulted
// at several places (one per code path of the behaviour it breaks, e.g.
// REQ, COUNT and live delivery); `nipcl-conform faults --where` lists
// them, and so does `go test ./reference -run TestEveryFaultIsConsulted -v`.
func TestEveryFaultIsConsulted(t *testing.T) {
	sc, err := scanFaultSites()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range sc.bad {
		t.Errorf("%s: a fault consultation must name a fault constant", b)
	}
	sites, err := FaultSites()
	if err != nil {
		t.Fatal(err)
	}
	inTable := map[string]bool{}
	var lines []string
	for _, tb := range faultTables {
		for _, f := range tb.faults {
			name := string(f.Name)
			inTable[name] = true
			if len(sites[name]) == 0 {
				t.Errorf("fault %s is in a table but no code consults it (r.fault(...) or faults.on(...) at the behaviour it breaks)", name)
				continue
			}
			var places []string
			for _, s := range sites[name] {
				fn := s.Func
				if s.Hook != "" {
					fn += " -> " + s.Hook
				}
				places = append(places, s.Pos+" ("+fn+")")
			}
			lines = append(lines, fmt.Sprintf("%-45s %d: %s", name, len(places), strings.Join(places, " ")))
		}
	}
	for name, v := range sc.consts {
		if !inTable[v] {
			t.Errorf("constant %s = %q names no fault of the tables (add it to a fault table or remove it)", name, v)
		}
	}
	sort.Strings(lines)
	t.Logf("fault consultations (fault, count: places):\n%s", strings.Join(lines, "\n"))
}

// TestFaultSitesPointAtTheCall: each site's file:line is a line of the
// relay's code that calls the switch by its constant.
func TestFaultSitesPointAtTheCall(t *testing.T) {
	sites, err := FaultSites()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]string{}
	for _, ss := range sites {
		for _, s := range ss {
			file, line, _ := strings.Cut(s.Pos, ":")
			if files[file] == nil {
				b, err := source.ReadFile(strings.TrimPrefix(file, "reference/"))
				if err != nil {
					t.Fatal(err)
				}
				files[file] = strings.Split(string(b), "\n")
			}
			var n int
			fmt.Sscan(line, &n)
			// A point check names the constant; an installed fault's site
			// is the statement joining the hook, the install func's
			// variable, or the row's install field.
			want := []string{s.Const}
			if s.Hook != "" {
				want = []string{"r." + s.Hook, "var " + s.Func, "install:"}
			}
			if n < 1 || n > len(files[file]) || !slices.ContainsFunc(want, func(w string) bool { return strings.Contains(files[file][n-1], w) }) {
				t.Errorf("fault %s: %s names none of %q", s.Fault, s.Pos, want)
			}
		}
	}
}
