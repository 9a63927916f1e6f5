package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/internal/text"
)

// Cause is one root cause: the cases of a plan that did not pass for the
// same reason, shown once with the cases under it. A maintainer facing 24
// red cases learns they are one bug.
type Cause struct {
	// ID is stable for the same plan and symptom (a short hash), so a JUnit
	// property can name it.
	ID   string `json:"id"`
	Plan string `json:"plan"`
	// Outcome is the class the cases share (fail, timeout, harness-error,
	// blocked).
	Outcome Outcome `json:"outcome"`
	// Precondition is the unmet precondition of a blocked cause.
	Precondition string `json:"precondition,omitempty"`
	// Symptom is the shared message with run-specific values (ids, keys,
	// generated names, numbers) masked: "l tags are … sorted …, got … before …".
	Symptom string `json:"symptom"`
	// Requirement, Level, Source and Ref come from the first case: the
	// sentence the cause breaks and whose rule it is.
	Requirement string       `json:"requirement"`
	Level       clause.Level `json:"level"`
	Source      string       `json:"source,omitempty"`
	Ref         string       `json:"ref,omitempty"`
	Sections    []string     `json:"sections"`
	Cases       []string     `json:"cases"`
	// Example is the first case's own message, and Excerpt the tail of its
	// wire transcript (a few frames).
	Example string `json:"example"`
	// Violates is the clause the cause's failures break, when they
	// recorded one (BrokenLine says it in words).
	Violates string `json:"violates,omitempty"`
	Excerpt  string `json:"excerpt,omitempty"`
	// Explain is the command that says more about the first case.
	Explain string `json:"explain"`
}

// setupFailed names the plans whose setup failed: none of their cases
// ran, and the setup error says why once.
func (r *Results) setupFailed() map[string]bool {
	out := map[string]bool{}
	for _, p := range r.Plans {
		if p.SetupError != "" {
			out[p.Name] = true
		}
	}
	return out
}

// Causes groups every case that did not pass (fail, timeout,
// harness-error, blocked) into root causes: a failure that recorded the
// clause it breaks (CaseResult.Violates; every failure of the harness's
// own cases does) groups by plan and clause, so one broken sentence is one
// cause whatever the cases' messages and sections; other outcomes group by
// plan, outcome class and the same symptom once run-specific values are
// masked; blocked cases group by the precondition they lack. Ordered by how many cases each
// explains. The cases of a plan whose setup failed are left out (the
// plan's setup error, said once, is their cause), and so are known
// failures (a --baseline lists them; reports list them apart).
func (r *Results) Causes() []Cause {
	var out []Cause
	at := map[string]int{}
	setup := r.setupFailed()
	for _, c := range r.Cases {
		switch c.Outcome {
		case Fail, Timeout, HarnessError, Blocked:
		default:
			continue
		}
		if setup[c.Plan] || Known(c) {
			continue // said once by the setup error / listed as known failures
		}
		symptom := Symptom(c.Message)
		key := c.Plan + "\x00" + string(c.Outcome) + "\x00" + symptom
		if c.Violates != "" {
			// A failure that names the clause it breaks groups by it: one
			// broken sentence is one cause, whatever the wire showed.
			key = c.Plan + "\x00" + string(c.Outcome) + "\x00clause " + c.Violates
		}
		if c.Outcome == Blocked && c.Precondition != "" {
			key = c.Plan + "\x00blocked\x00" + c.Precondition
		}
		i, ok := at[key]
		if !ok {
			sum := sha256.Sum256([]byte(key))
			i = len(out)
			at[key] = i
			source, ref, requirement, section := c.Source, c.Ref, c.Requirement, c.Section
			if cl, ok := Broken(c); ok && c.Outcome != Blocked {
				// The broken sentence, not the case's own section, is the
				// rule the cause is about.
				source, ref, requirement, section = cl.Source, cl.Ref, cl.ID+" ("+string(cl.Level)+"): "+cl.Text, cl.Section
			}
			if c.Outcome == Blocked {
				// What blocks is the harness's own need, whatever rule the
				// case would have checked.
				source, ref = "contract", "harness precondition "+c.Precondition
			}
			out = append(out, Cause{
				ID: hex.EncodeToString(sum[:4]), Plan: c.Plan, Outcome: c.Outcome, Precondition: c.Precondition, Symptom: symptom,
				Requirement: requirement, Level: c.Level, Source: source, Ref: ref, Sections: []string{section},
				Example: text.FirstLine(c.Message), Excerpt: transcriptTail(c.Transcript, 6),
				Explain: "nipcl-conform explain " + c.ID,
			})
			if c.Outcome != Blocked {
				out[i].Violates = c.Violates
			}
		}
		k := &out[i]
		k.Cases = append(k.Cases, c.ID)
		if _, ok := Broken(c); (!ok || c.Outcome == Blocked) && !slices.Contains(k.Sections, c.Section) {
			k.Sections = append(k.Sections, c.Section)
		}
		if c.Level.Rank() > k.Level.Rank() {
			k.Level = c.Level
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].Cases) != len(out[j].Cases) {
			return len(out[i].Cases) > len(out[j].Cases)
		}
		return out[i].Plan < out[j].Plan
	})
	return out
}

// CauseOf returns the ID of the root cause a case belongs to ("" for a
// case that passed or was skipped).
func CauseOf(causes []Cause, c CaseResult) string {
	for _, k := range causes {
		if k.Plan == c.Plan && slices.Contains(k.Cases, c.ID) {
			return k.ID
		}
	}
	return ""
}

var (
	maskHex     = regexp.MustCompile(`\b[0-9a-f]{12,}\b`)
	maskUUID    = regexp.MustCompile(`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	maskQuoted  = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	maskNumber  = regexp.MustCompile(`\b\d{5,}\b|\b\d+(\.\d+)?(ms|µs|s)\b`)
	maskActor   = regexp.MustCompile(`\b([a-z]+)\([0-9a-f]{8}\)`)
	maskBracket = regexp.MustCompile(`\[[^\[\]]{16,}\]`)
	maskSpaces  = regexp.MustCompile(`\s+`)
)

// Symptom is a message's first line with run-specific values masked, so
// the same broken rule seen in different cases reads the same.
func Symptom(msg string) string {
	s := text.FirstLine(msg)
	s = maskUUID.ReplaceAllString(s, "<id>")
	s = maskHex.ReplaceAllString(s, "<hex>")
	s = maskQuoted.ReplaceAllString(s, "…")
	s = maskActor.ReplaceAllString(s, "$1")
	s = maskBracket.ReplaceAllString(s, "[…]")
	s = maskNumber.ReplaceAllString(s, "N")
	s = maskSpaces.ReplaceAllString(s, " ")
	// What a case prefixes its message with ("publish kind N: …") varies
	// less than the symptom after it; keep it, it names the step.
	return strings.TrimSpace(s)
}

// transcriptTail returns the last n lines of a wire transcript.
func transcriptTail(tr string, n int) string {
	tr = strings.TrimRight(tr, "\n")
	if tr == "" {
		return ""
	}
	lines := strings.Split(tr, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		if len(l) > 300 {
			lines[i] = l[:300] + "…"
		}
	}
	return strings.Join(lines, "\n")
}
