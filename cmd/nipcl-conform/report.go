package main

import (
	"fmt"
	"io"

	"github.com/nipcl/nipcl-conform/reports"
	"github.com/nipcl/nipcl-conform/runner"
)

func cmdReport(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "--help" || args[0] == "-h" {
		fmt.Fprint(stderr, "Usage: nipcl-conform report diff OLD.json NEW.json\n       nipcl-conform report merge OUTDIR SHARD.json...\n       nipcl-conform report verify RESULTS.json\n")
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "diff":
		if len(args) != 3 {
			return usageError(stderr, "report diff takes two results.json files")
		}
		old, err := reports.ReadJSON(args[1])
		if err != nil {
			return usageError(stderr, "%v", err)
		}
		cur, err := reports.ReadJSON(args[2])
		if err != nil {
			return usageError(stderr, "%v", err)
		}
		d := reports.Compare(old, cur)
		d.Write(stdout)
		if len(d.Regressions) > 0 {
			return 1
		}
		return 0
	case "merge":
		if len(args) < 3 {
			return usageError(stderr, "report merge takes an output directory and one or more results.json files")
		}
		var parts []*reports.Results
		for _, f := range args[2:] {
			r, err := reports.ReadJSON(f)
			if err != nil {
				return usageError(stderr, "%v", err)
			}
			parts = append(parts, r)
		}
		merged, err := reports.Merge(parts...)
		if err != nil {
			return usageError(stderr, "%v", err)
		}
		if err := runner.WriteReports(args[1], "", merged); err != nil {
			fmt.Fprintf(stderr, "nipcl-conform report merge: %v\n", err)
			return 2
		}
		fmt.Fprintf(stdout, "merged %d results (%d cases) into %s\n", len(parts), len(merged.Cases), args[1])
		return merged.ExitCode(false)
	case "verify":
		return cmdReportVerify(args[1:], stdout, stderr)
	default:
		return usageError(stderr, "unknown report command %q (want diff, merge or verify)", args[0])
	}
}
