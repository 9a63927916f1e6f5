package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Report is a whole bench run: the settings and one result per target
// measured, in order, plus the targets that could not be measured.
type Report struct {
	RunID       string    `json:"run_id"`
	Channels    int       `json:"channels"`
	Concurrency int       `json:"concurrency"`
	Duration    string    `json:"duration"`
	Safe        bool      `json:"safe,omitempty"`
	Rate        float64   `json:"rate,omitempty"`
	Results     []*Result `json:"results"`
	Errors      []string  `json:"errors,omitempty"`
}

// ms formats a latency in milliseconds with two decimals.
func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64)
}

// pair formats "p50 / p99 ms", or "—" without samples.
func pair(s Stats) string {
	if s.N == 0 {
		return "—"
	}
	return ms(s.P50) + " / " + ms(s.P99)
}

// thousands formats n with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// cell escapes a value for a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

// Markdown writes the report as a Markdown table with one column per
// target, followed by notes.
func (r *Report) Markdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "nipcl-conform bench: run %s, %d channels, %d concurrent writers, %s per target",
		r.RunID, r.Channels, r.Concurrency, r.Duration)
	if r.Safe {
		b.WriteString(", safe mode")
	}
	if r.Rate > 0 {
		fmt.Fprintf(&b, ", at most %g writes/s", r.Rate)
	}
	b.WriteString("\n\n")
	if len(r.Results) > 0 {
		rows := []struct {
			name string
			val  func(*Result) string
		}{
			{"profile", func(x *Result) string { return x.Profile }},
			{"mutation", func(x *Result) string { return "`" + x.Mutation + "`" }},
			{"acknowledged mutations", func(x *Result) string {
				return thousands(x.Mutations) + " in " + x.Elapsed.Round(10*time.Millisecond).String()
			}},
			{"**mutations/s**", func(x *Result) string { return "**" + thousands(int(x.PerSecond+0.5)) + "**" }},
			{"OK latency p50 / p99 ms", func(x *Result) string { return pair(x.OK) }},
			{"snapshot latency (OK → 39000 live) p50 / p99 ms", func(x *Result) string { return pair(x.Snapshot) }},
			{"snapshots seen / before OK / missed", func(x *Result) string {
				return fmt.Sprintf("%s / %s / %s", thousands(x.Snapshot.N), thousands(x.BeforeOK), thousands(x.Missed))
			}},
			{"discovery read", func(x *Result) string { return "`" + x.Read + "`" }},
			{"discovery latency p50 / p99 ms", func(x *Result) string {
				if x.DiscoveryError != "" {
					return "failed: " + x.DiscoveryError
				}
				return pair(x.Discovery)
			}},
			{"discovery queries / incomplete", func(x *Result) string {
				return thousands(x.Discovery.N) + " / " + thousands(x.Incomplete)
			}},
		}
		b.WriteString("| |")
		for _, x := range r.Results {
			b.WriteString(" " + cell(x.Target) + " |")
		}
		b.WriteString("\n| --- |")
		for range r.Results {
			b.WriteString(" ---: |")
		}
		b.WriteString("\n")
		for _, row := range rows {
			b.WriteString("| " + row.name + " |")
			for _, x := range r.Results {
				b.WriteString(" " + cell(row.val(x)) + " |")
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
		for _, x := range r.Results {
			fmt.Fprintf(&b, "- %s: %s", cell(x.Target), x.URL)
			if x.Note != "" {
				b.WriteString("; " + x.Note)
			}
			if c := x.Cleanup; c != nil {
				fmt.Fprintf(&b, "; safe mode deleted %d channels", c.Deleted)
				if len(c.Failed) > 0 {
					fmt.Fprintf(&b, ", could NOT delete %d: %s", len(c.Failed), strings.Join(c.Failed, "; "))
				}
			}
			b.WriteString("\n")
		}
	}
	for _, e := range r.Errors {
		b.WriteString("- not measured: " + e + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JSON writes the report as indented JSON (latencies in nanoseconds, as
// Go durations encode).
func (r *Report) JSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("encode bench report: %w", err)
	}
	return nil
}
