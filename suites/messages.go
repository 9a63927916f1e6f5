package suites

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
	actual := value(lines[1])
	verb := strings.TrimSpace(lines[2])
	var expected string
	if len(lines) > 3 && strings.HasPrefix(lines[3], "    ") {
		expected = value(lines[3])
	}
	var out string
	switch verb {
	case "to be true":
		out = "expected true, observed false"
	case "to be false":
		out = "expected false, observed true"
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
		if strings.HasPrefix(verb, "to be ") && expected != "" { // BeNumerically: "to be >"
			out = "expected a value " + strings.TrimPrefix(verb, "to be ") + " " + expected + ", observed " + actual
		} else {
			return msg
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

func value(line string) string {
	v := strings.TrimSpace(typePrefix.ReplaceAllString(line, ""))
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
		return value(lines[0])
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
