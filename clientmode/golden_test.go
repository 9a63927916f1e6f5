package clientmode

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var updateClientGolden = flag.Bool("update", false, "rewrite testdata/client-catalogue.golden from the current client cases")

const clientGolden = "testdata/client-catalogue.golden"

const clientGoldenHeader = `# nipcl-conform client case catalogue: generated, do not edit by hand.
#
# Regenerate: go test ./clientmode -run TestClientGoldenCatalogue -update
# (or NIPCL_UPDATE_GOLDEN=1 go test ./clientmode -run TestClientGoldenCatalogue)
#
# A client case ID is never reused or removed; changing a case's level or
# clause needs this file regenerated and a CHANGELOG.md entry.
#
# Columns (tab-separated): id, level, profile, clause
`

func clientCatalogueLines() []string {
	var out []string
	for _, c := range Cases {
		out = append(out, fmt.Sprintf("%s\t%s\t%s\t%s", c.ID, c.Level, c.Profile, c.Clause))
	}
	return out
}

func parseClientGolden(data []byte) map[string]string {
	m := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		id, _, _ := strings.Cut(l, "\t")
		m[id] = l
	}
	return m
}

// TestClientGoldenCatalogue pins the client cases (ID, level, profile,
// clause) to testdata/client-catalogue.golden: no client case changes its
// level or clause, or disappears, without the file being regenerated;
// regenerating never drops an ID.
func TestClientGoldenCatalogue(t *testing.T) {
	old, err := os.ReadFile(clientGolden)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	cur := clientCatalogueLines()
	have := map[string]bool{}
	for _, l := range cur {
		id, _, _ := strings.Cut(l, "\t")
		have[id] = true
	}
	golden := parseClientGolden(old)
	for id := range golden {
		if !have[id] {
			t.Errorf("client case %s is in %s but no longer exists: a client case ID is never removed or reused", id, clientGolden)
		}
	}
	if *updateClientGolden || os.Getenv("NIPCL_UPDATE_GOLDEN") == "1" {
		if t.Failed() {
			return
		}
		if err := os.WriteFile(clientGolden, []byte(clientGoldenHeader+strings.Join(cur, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d client cases", clientGolden, len(cur))
		return
	}
	if old == nil {
		t.Fatalf("%s is missing; generate it: go test ./clientmode -run TestClientGoldenCatalogue -update", clientGolden)
	}
	for _, l := range cur {
		id, _, _ := strings.Cut(l, "\t")
		switch g, ok := golden[id]; {
		case !ok:
			t.Errorf("client case %s is not in %s; regenerate it: go test ./clientmode -run TestClientGoldenCatalogue -update", id, clientGolden)
		case g != l:
			t.Errorf("client case %s changed: %s has %q, the table %q (regenerate and add a CHANGELOG.md line)", id, clientGolden, g, l)
		}
	}
}
