package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func msec(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }

func TestPercentileNearestRank(t *testing.T) {
	hundred := make([]time.Duration, 100)
	for i := range hundred {
		hundred[i] = time.Duration(i+1) * time.Millisecond
	}
	cases := []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"empty", nil, 50, 0},
		{"one sample p50", []time.Duration{7}, 50, 7},
		{"one sample p99", []time.Duration{7}, 99, 7},
		{"two samples p50 is the lower", []time.Duration{1, 2}, 50, 1},
		{"two samples p99 is the upper", []time.Duration{1, 2}, 99, 2},
		{"four samples p50", []time.Duration{1, 2, 3, 4}, 50, 2},
		{"five samples p50 is the middle", []time.Duration{1, 2, 3, 4, 5}, 50, 3},
		{"100 samples p50", hundred, 50, 50 * time.Millisecond},
		{"100 samples p99", hundred, 99, 99 * time.Millisecond},
		{"100 samples p100", hundred, 100, 100 * time.Millisecond},
		{"p0 clamps to the smallest", hundred, 0, time.Millisecond},
		{"p above 100 clamps to the largest", hundred, 150, 100 * time.Millisecond},
	}
	for _, c := range cases {
		if got := Percentile(c.sorted, c.p); got != c.want {
			t.Errorf("%s: Percentile(p%g) = %v, want %v", c.name, c.p, got, c.want)
		}
	}
}

func TestSummarizeDoesNotReorderInput(t *testing.T) {
	in := []time.Duration{5, 1, 4, 2, 3}
	s := Summarize(in)
	if s != (Stats{N: 5, P50: 3, P99: 5, Max: 5}) {
		t.Errorf("Summarize = %+v", s)
	}
	if in[0] != 5 || in[1] != 1 {
		t.Errorf("input reordered: %v", in)
	}
	if (Summarize(nil) != Stats{}) {
		t.Error("Summarize(nil) not zero")
	}
}

func sampleReport() *Report {
	return &Report{RunID: "abc", Channels: 4, Concurrency: 2, Duration: "3s", Results: []*Result{
		{Target: "reference(labels)", URL: "ws://127.0.0.1:1", Profile: "labels", Note: "in-process",
			Mutation: "9002 add-label + remove-label", Read: `{"kinds":[39000]}`, Elapsed: 3 * time.Second,
			Mutations: 4500, PerSecond: 1500, OK: Stats{N: 4500, P50: msec(0.8), P99: msec(5.25)},
			Snapshot: Stats{N: 4500, P50: msec(0.17), P99: msec(4)}, BeforeOK: 3,
			Discovery: Stats{N: 3000, P50: msec(0.79), P99: msec(6.5)}, Cleanup: &Cleanup{Deleted: 4}},
		{Target: "relay|29", URL: "ws://127.0.0.1:2", Profile: "nip29", Mutation: "9002 metadata edit (name)",
			Read: "#d", Elapsed: 3 * time.Second, Mutations: 1749, PerSecond: 583, OK: Stats{N: 1749, P50: msec(3), P99: msec(10.666)},
			Missed: 2, DiscoveryError: `CLOSED "restricted: no"`},
	}, Errors: []string{"mine: unreachable: connect: refused"}}
}

func TestMarkdownHasAColumnPerTarget(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport().Markdown(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| | reference(labels) | relay\\|29 |",
		"| --- | ---: | ---: |",
		"| **mutations/s** | **1,500** | **583** |",
		"| acknowledged mutations | 4,500 in 3s | 1,749 in 3s |",
		"| OK latency p50 / p99 ms | 0.80 / 5.25 | 3.00 / 10.67 |",
		"| snapshot latency (OK → 39000 live) p50 / p99 ms | 0.17 / 4.00 | — |",
		"| snapshots seen / before OK / missed | 4,500 / 3 / 0 | 0 / 0 / 2 |",
		`failed: CLOSED "restricted: no"`,
		"- reference(labels): ws://127.0.0.1:1; in-process; safe mode deleted 4 channels",
		"- not measured: mine: unreachable: connect: refused",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, out)
		}
	}
	// Every table row has the same number of cells.
	cells := -1
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		n := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
		if cells >= 0 && n != cells {
			t.Errorf("row has %d separators, want %d: %s", n, cells, line)
		}
		cells = n
	}
}

func TestJSONRoundTrips(t *testing.T) {
	var b bytes.Buffer
	rep := sampleReport()
	if err := rep.JSON(&b); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Results) != 2 || back.Results[0].OK.P99 != msec(5.25) || back.Results[1].Missed != 2 || back.Results[0].Cleanup.Deleted != 4 {
		t.Errorf("round trip lost data: %s", b.String())
	}
	for _, k := range []string{`"mutations_per_second"`, `"snapshot_latency"`, `"p99_ns"`, `"discovery_latency"`} {
		if !strings.Contains(b.String(), k) {
			t.Errorf("JSON lacks %s", k)
		}
	}
}

func TestErrorIsOneLine(t *testing.T) {
	e := &Error{Target: "x", Kind: Refused, Detail: "a\nb\n\tc"}
	if got := e.Error(); got != "x: refuses writes: a b c" {
		t.Errorf("Error() = %q", got)
	}
}
