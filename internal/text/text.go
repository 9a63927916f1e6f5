// Package text holds the small string helpers the harness's packages share:
// one line of a message, the tail of a log, a clipped string, the 64-hex
// check for keys and ids. Each exists once here instead of a copy per
// package.
package text

import (
	"regexp"
	"strings"
)

// FirstLine returns the first line of s after trimming surrounding white
// space.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// OneLine folds s to a single line: every run of white space (newlines
// included) becomes one space, and leading and trailing space go.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Clip returns s cut to its first n bytes followed by "…" when it is
// longer than n bytes; otherwise s.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// LastLines returns the last n lines of s that are not blank, unchanged
// (indentation kept), oldest first.
func LastLines(s string, n int) []string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// hex64 is 64 lowercase hex digits: a public key or an event id as NIP-01
// writes them.
var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// IsHex64 reports whether s is exactly 64 lowercase hex digits, the form
// NIP-01 gives public keys and event ids.
func IsHex64(s string) bool { return hex64.MatchString(s) }
