package main

import (
	"github.com/nipcl/nipcl-conform/clause"

	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/version"
	"github.com/nipcl/nipcl-conform/version/catalogue"
)

// knownCatalogue is this binary's catalogue for reports.VerifyJSON.
func knownCatalogue() *reports.KnownCatalogue {
	k := &reports.KnownCatalogue{
		Fingerprint: catalogue.Fingerprint(), Version: version.Get().Version,
		Cases: map[string]reports.KnownCase{},
	}
	for _, e := range catalogue.Current() {
		k.Cases[e.ID] = reports.KnownCase{Level: clause.Level(e.Level), Profile: e.Profile}
	}
	for _, s := range version.Specs() {
		if s.Current {
			k.Specs = append(k.Specs, reports.SpecRevision{Profile: s.Profile, Name: s.Name, Revision: s.Revision, Date: s.Date})
		}
	}
	return k
}

// cmdReportVerify checks that a results file is internally consistent and
// prints what it claims: exit 0 consistent, 1 not, 2 unreadable.
func cmdReportVerify(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("report verify", "report verify RESULTS.json", stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		return usageError(stderr, "report verify takes one results.json file")
	}
	path := fs.Arg(0)
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "nipcl-conform report verify: %v\n", err)
		return 2
	}
	v, err := reports.VerifyJSON(data, knownCatalogue())
	if err != nil {
		fmt.Fprintf(stderr, "nipcl-conform report verify: %s is not a nipcl-conform results file: %v\n", path, err)
		return 2
	}
	// The badge written beside the results must say what they say.
	badgePath := filepath.Join(filepath.Dir(path), "badge.svg")
	if svg, err := os.ReadFile(badgePath); err == nil {
		r, _ := reports.ReadJSON(path)
		var want bytes.Buffer
		if r != nil && reports.WriteBadge(&want, r) == nil && !bytes.Equal(svg, want.Bytes()) {
			b := reports.BadgeOf(r)
			v.Problems = append(v.Problems, fmt.Sprintf("%s does not match the results (they give %q: %q)", badgePath, b.Label, b.Message))
		}
	}
	v.Write(stdout, path)
	if !v.OK() {
		return 1
	}
	return 0
}
