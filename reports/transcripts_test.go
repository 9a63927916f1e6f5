package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// longTranscript has n frames, the last one marked.
func longTranscript(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "+%d.000s owner -> [\"REQ\",\"s%d\",{\"kinds\":[39000]}]\n", i, i)
	}
	b.WriteString("+9.999s relay <- </script><b>the last frame</b>")
	return b.String()
}

// TestHTMLReportLoadsLongTranscriptsWhenOpened: a long transcript is kept
// once in the page's JSON block (two failures with the same one share it),
// its place shows a closed <details> with its first lines, and the block
// cannot end the <script> element early; a short one stays inline.
func TestHTMLReportLoadsLongTranscriptsWhenOpened(t *testing.T) {
	r := sample()
	long := longTranscript(130)
	r.Cases[2].Transcript = long // labels/grammar/3, timeout
	r.Cases[3].Transcript = long // labels/grammar/4, harness error
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if n := strings.Count(page, `data-t="t0"`); n != 2 {
		t.Errorf("%d details load transcript t0, want 2 (one per failure)", n)
	}
	if strings.Contains(page, `data-t="t1"`) {
		t.Error("the same transcript was stored twice")
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="nipcl-transcripts">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no transcript block")
	}
	var blob map[string]string
	if err := json.Unmarshal([]byte(m[1]), &blob); err != nil {
		t.Fatalf("the transcript block is not JSON: %v", err)
	}
	if blob["t0"] != long {
		t.Error("the block does not hold the whole transcript")
	}
	// One over 140 lines keeps its ends there.
	r.Cases[2].Transcript = longTranscript(1000)
	buf.Reset()
	if err := WriteHTML(&buf, r, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	if p := buf.String(); !strings.Contains(p, "861 lines left out here: the whole transcript is in results.json") || strings.Contains(p, `s500\`) || !strings.Contains(p, `s999\`) {
		t.Error("a transcript of 1001 lines is not cut to its first 100 and last 40 lines")
	}
	// A middle line is in the block only (the root cause's excerpt shows
	// the last lines, the details the first).
	if n := strings.Count(page, `s60\`); n != 1 {
		t.Errorf("the long transcript's middle is in the page %d times, want once", n)
	}
	if !strings.Contains(page, `&#34;s0&#34;`) {
		t.Error("the first lines of the long transcript are not shown in its place")
	}
	// The short transcript of labels/grammar/2 is inline and open.
	if !strings.Contains(page, `<details open><summary>Wire transcript</summary><pre class="wire">&#43;0.000s owner -&gt; [&#34;EVENT&#34;,{}]`) {
		t.Error("a short transcript is not inline")
	}
	if !strings.Contains(page, `addEventListener("toggle"`) {
		t.Error("no loader script")
	}
}

// TestMatrixHTMLLoadsLongTranscriptsWhenOpened: the same for matrix.html.
func TestMatrixHTMLLoadsLongTranscriptsWhenOpened(t *testing.T) {
	r := sample()
	long := longTranscript(130)
	r.Cases[1].Transcript = long
	m := BuildMatrix(MatrixSource{Name: "a", Results: r}, MatrixSource{Name: "b", Results: r})
	var buf bytes.Buffer
	if err := WriteMatrixHTML(&buf, m); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if n := strings.Count(page, `s60\`); n != 1 {
		t.Errorf("the long transcript of two columns is in the page %d times, want once", n)
	}
	if n := strings.Count(page, `data-t="t0"`); n != 2 {
		t.Errorf("%d details load transcript t0, want 2", n)
	}
}

// TestJUnitKeepsBothEndsOfALongTranscript: a long transcript is cut in
// the middle, saying so and where the whole is; a short one is whole.
func TestJUnitKeepsBothEndsOfALongTranscript(t *testing.T) {
	long := longTranscript(300)
	got := junitTranscript(long)
	if !strings.HasPrefix(got, "+0.000s owner") || !strings.HasSuffix(got, "<b>the last frame</b>") {
		t.Errorf("the ends are not kept:\n%s", got)
	}
	if !strings.Contains(got, "251 lines left out here: the whole transcript is in results.json") {
		t.Error("the cut is not said")
	}
	if short := longTranscript(10); junitTranscript(short) != short {
		t.Error("a short transcript was cut")
	}
}
