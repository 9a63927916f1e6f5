package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/nipcl/nipcl-conform/version"
	"github.com/nipcl/nipcl-conform/version/catalogue"
)

// versionInfo is what `nipcl-conform version --json` prints.
type versionInfo struct {
	Tool string `json:"tool"`
	version.Build
	Catalogue string         `json:"catalogue"`
	Cases     int            `json:"cases"`
	Specs     []version.Spec `json:"specs"`
}

func currentVersion() versionInfo {
	return versionInfo{
		Tool: "nipcl-conform", Build: version.Get(),
		Catalogue: catalogue.Fingerprint(), Cases: len(catalogue.Current()), Specs: version.Specs(),
	}
}

// cmdVersion prints the build (module version, commit), the catalogue
// fingerprint and the spec revisions the catalogue targets.
func cmdVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "version [--json]", stderr)
	asJSON := fs.Bool("json", false, "print as JSON")
	if code, done := parse(fs, args); done {
		return code
	}
	v := currentVersion()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			fmt.Fprintf(stderr, "nipcl-conform version: %v\n", err)
			return 2
		}
		return 0
	}
	writeVersion(stdout, v)
	return 0
}

func writeVersion(w io.Writer, v versionInfo) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s %s\n", v.Tool, v.Version)
	fmt.Fprintf(tw, "commit\t%s\n", v.CommitText())
	if v.Time != "" {
		fmt.Fprintf(tw, "commit time\t%s\n", v.Time)
	}
	fmt.Fprintf(tw, "go\t%s\n", v.Go)
	fmt.Fprintf(tw, "catalogue\t%s (%d cases; suites/testdata/catalogue.golden)\n", v.Catalogue, v.Cases)
	fmt.Fprintf(tw, "spec revisions the catalogue targets:\n")
	for _, s := range v.Specs {
		fmt.Fprintf(tw, "  %s\t%s\n", s.Profile, s)
	}
	_ = tw.Flush()
}
