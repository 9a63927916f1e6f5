package framework

import (
	"regexp"
	"strings"
)

// Reword turns a Gomega matcher failure ("Expected\n    <string>: a\nto
// equal\n    <string>: b") into our words: "<what>: expected b, observed
// a". Messages the cases write themselves (failf) pass through unchanged.
// The runner installs it as Gomega's fail handler, so no report shows
// matcher boilerplate.
func Reword(msg string) string {
	desc, body := splitDescription(msg)
	if body == "" {
		return msg
	}
	lines := strings.Split(body, "\n")
	if strings.TrimSpace(lines[0]) == "Unexpected error:" {
		return join(desc, "expected no error, observed: "+errorText(lines[1:]))
	}
	if strings.TrimSpace(lines[0]) != "Expected" || len(lines) < 3 {
		return msg
	}
	// Gomega indents values by four spaces; the matcher's verb stands
	// between them unindented.
	actualBlock, rest := indented(lines[1:])
	if len(rest) == 0 {
		return msg
	}
	verb := strings.TrimSpace(rest[0])
	expectedBlock, _ := indented(rest[1:])
	actual, expected := value(actualBlock), ""
	if len(expectedBlock) > 0 {
		expected = value(expectedBlock)
	}
	var out string
	switch verb {
	case "to be true":
		// The description states what should hold; the relay showed
		// otherwise: said in words, never "true".
		out = "expected so, observed otherwise"
	case "to be false":
		out = "expected not, observed so"
	case "to be empty":
		out = "expected nothing, observed " + actual
	case "not to be empty":
		out = "expected something, observed nothing"
	case "to be nil":
		out = "expected none, observed " + actual
	case "not to be nil":
		out = "expected one, observed none"
	case "to equal", "to be equivalent to":
		out = "expected " + expected + ", observed " + actual
	case "not to equal":
		out = "expected anything but " + expected + ", observed it"
	case "to consist of":
		out = "expected exactly " + expected + " (any order), observed " + actual
	case "to contain element matching":
		out = "expected " + actual + " to contain " + expected
	case "not to contain element matching":
		out = "expected " + actual + " not to contain " + expected
	case "to match regular expression":
		out = "expected a value matching " + expected + ", observed " + actual
	default:
		switch {
		case strings.HasPrefix(verb, "to be ") && expected != "" && strings.ContainsAny(strings.TrimPrefix(verb, "to be "), "<>=~"): // BeNumerically: "to be >"
			out = "expected a value " + strings.TrimPrefix(verb, "to be ") + " " + expected + ", observed " + actual
		case verb == "to be zero-valued":
			out = "expected zero, observed " + actual
		case expected != "":
			out = "observed " + actual + ", expected it " + verb + " " + expected
		default:
			out = "observed " + actual + ", expected it " + verb
		}
	}
	return join(desc, out)
}

// splitDescription separates the case's own description (the lines before
// Gomega's "Expected" / "Unexpected error:") from the matcher text.
func splitDescription(msg string) (desc, body string) {
	for _, marker := range []string{"Expected\n", "Unexpected error:\n"} {
		if strings.HasPrefix(msg, marker) {
			return "", msg
		}
		if i := strings.Index(msg, "\n"+marker); i >= 0 {
			return strings.TrimSpace(msg[:i]), msg[i+1:]
		}
	}
	return "", ""
}

// typePrefix is Gomega's "<type | len:…>: " before a formatted value.
var typePrefix = regexp.MustCompile(`^\s*<[^>]*>:\s?`)

// indented splits off the leading lines indented by four spaces (one
// formatted value) from the rest.
func indented(lines []string) (block, rest []string) {
	i := 0
	for i < len(lines) && strings.HasPrefix(lines[i], "    ") {
		i++
	}
	return lines[:i], lines[i:]
}

// value renders a formatted value block on one line, without its type.
func value(block []string) string {
	var parts []string
	for _, l := range block {
		parts = append(parts, strings.TrimSpace(l))
	}
	v := typePrefix.ReplaceAllString(strings.Join(parts, " "), "")
	v = strings.ReplaceAll(strings.ReplaceAll(v, "[ ", "["), ", ]", "]")
	v = strings.TrimSpace(v)
	if v == "" {
		return "(empty)"
	}
	return v
}

func errorText(lines []string) string {
	for i, l := range lines {
		if i > 0 && strings.TrimSpace(l) != "" && !strings.HasPrefix(strings.TrimSpace(l), "{") && strings.TrimSpace(l) != "occurred" {
			return strings.TrimSpace(l)
		}
	}
	if len(lines) > 0 {
		return value(lines[:1])
	}
	return "an error"
}

func join(desc, out string) string {
	if desc == "" {
		return out
	}
	return desc + ": " + out
}

// HasMatcherBoilerplate reports whether a failure message still carries
// Gomega's default matcher layout (the fault kill test rejects those).
func HasMatcherBoilerplate(msg string) bool {
	return strings.Contains(msg, "\nExpected\n") || strings.HasPrefix(msg, "Expected\n") ||
		strings.Contains(msg, "Unexpected error:\n") || typeInMessage.MatchString(msg)
}

var typeInMessage = regexp.MustCompile(`\n\s+<[a-z\[\]*.0-9 |:,]+>: `)
