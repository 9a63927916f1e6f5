package main

import (
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: nipcl-conform %s\n\nFlags:\n", synopsis)
		printFlags(stderr, fs)
	}
	return fs
}

// placeholder matches the argument a flag's help names first: "FILE:",
// "HOST=HEX:", "[ROLE=]HEX:", "i/N:", "'Name: value':".
var placeholder = regexp.MustCompile(`^('[^']+'|\[?[A-Za-z][A-Za-z0-9_=\[\]/.]*):\s`)

// argName is the name of a flag's argument in help: the placeholder its
// help text starts with, else its type ("string", "duration", …; none for
// a bool). flag.PrintDefaults would take the first back-quoted words of
// the text instead ("-shard report merge").
func argName(f *flag.Flag) string {
	if m := placeholder.FindStringSubmatch(f.Usage); m != nil {
		return m[1]
	}
	plain := *f
	plain.Usage = strings.ReplaceAll(f.Usage, "`", "")
	name, _ := flag.UnquoteUsage(&plain)
	return name
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// printFlags prints a flag set's flags as flag.PrintDefaults does, with
// argument names from argName and the help text as written.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		line := "  -" + f.Name
		if name := argName(f); name != "" {
			line += " " + name
		}
		line += "\n    \t" + strings.ReplaceAll(f.Usage, "\n", "\n    \t")
		switch f.DefValue {
		case "", "0", "0s", "false", "[]":
		default:
			if g, ok := f.Value.(flag.Getter); ok && isString(g.Get()) {
				line += fmt.Sprintf(" (default %q)", f.DefValue)
			} else {
				line += " (default " + f.DefValue + ")"
			}
		}
		fmt.Fprintln(w, line)
	})
}

// parse parses args; it returns (exit code, done) where done means the
// caller must return the code (help or usage error).
func parse(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0, true
		}
		return 2, true
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "usage error: unexpected argument %q\n", fs.Arg(0))
		return 2, true
	}
	return 0, false
}

// usageError prints a one-line usage error and returns exit code 2.
func usageError(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "usage error: "+format+"\n", args...)
	return 2
}
