package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/reference"
	"github.com/nipcl/nipcl-conform/suites"
)

func cmdFaults(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("faults", "faults", stderr)
	if code, done := parse(fs, args); done {
		return code
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FAULT\tPROFILE\tSECTION\tBREAKS")
	for _, f := range reference.Faults() {
		p := f.Profile
		if p == "" {
			p = "any"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Name, p, f.Section, f.Breaks)
	}
	return flushCode(tw, stderr)
}

func cmdList(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("list", "list [--profile P]", stderr)
	profile := fs.String("profile", "", "only cases of this profile (identity, labels; baseline cases are always listed)")
	if code, done := parse(fs, args); done {
		return code
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tLEVEL\tSECTION\tREQUIREMENT")
	for _, c := range suites.Catalogue() {
		if *profile != "" && c.Profile != "" && c.Profile != *profile {
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.ID, c.Level, c.Section, c.Requirement)
	}
	return flushCode(tw, stderr)
}

func cmdExplain(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("explain", "explain ID", stderr)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		return usageError(stderr, "explain takes one case or section ID")
	}
	id := fs.Arg(0)
	if c, ok := suites.Lookup(id); ok {
		s, _ := clause.Lookup(c.Section)
		profile := c.Profile
		if profile == "" {
			profile = "baseline (every profile)"
		}
		fmt.Fprintf(stdout, "%s\n  requirement: %s\n  level:       %s\n  profile:     %s\n  area:        %s\n  section:     %s — %s, %q\n",
			c.ID, c.Requirement, c.Level, profile, c.Area, c.Section, s.Doc, s.Title)
		if c.Reading != "" {
			fmt.Fprintf(stdout, "  reading:     %s\n", c.Reading)
		}
		return 0
	}
	if s, ok := clause.Lookup(id); ok {
		fmt.Fprintf(stdout, "%s — %s, %q\n  cases:\n", s.ID, s.Doc, s.Title)
		for _, c := range suites.Catalogue() {
			if c.Section == id {
				fmt.Fprintf(stdout, "    %-24s %-6s %s\n", c.ID, c.Level, c.Requirement)
			}
		}
		for _, f := range reference.Faults() {
			if f.Section == id {
				fmt.Fprintf(stdout, "  fault %s: %s\n", f.Name, f.Breaks)
			}
		}
		return 0
	}
	fmt.Fprintf(stderr, "nipcl-conform explain: no case or section %q (see `nipcl-conform list`)\n", id)
	return 2
}

func flushCode(tw *tabwriter.Writer, stderr io.Writer) int {
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(stderr, "nipcl-conform: %v\n", err)
		return 1
	}
	return 0
}
