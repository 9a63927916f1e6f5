package main

import (
	"fmt"
	"io"

	"github.com/nipcl/nipcl-conform/reports"
)

func cmdReport(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "--help" || args[0] == "-h" {
		fmt.Fprint(stderr, "Usage: nipcl-conform report diff OLD.json NEW.json\n")
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
	default:
		return usageError(stderr, "unknown report command %q (want diff)", args[0])
	}
}
