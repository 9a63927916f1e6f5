// Package text holds the small string helpers the harness's packages share:
// one line of a message, the tail of a log, a clipped string, the 64-hex
// check for keys and ids. Each exists once here instead of a copy per
// package.
package text

import "strings"

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

// IsHex64 reports whether s is exactly 64 lowercase hex digits, the form
// NIP-01 gives public keys and event ids. (A loop, not a regexp: the
// reference relay checks every id and key of every filter with it.)
func IsHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
