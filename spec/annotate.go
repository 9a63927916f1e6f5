package spec

import (
	"github.com/nipcl/nipcl-conform/clause"

	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// Sentence statuses in an annotated draft, from an editor's point of view.
const (
	StatusNoTest        = "no-test"       // no case covers the sentence yet
	StatusNotTestable   = "not-testable"  // no case can: none of its clauses is testable
	StatusUnimplemented = "unimplemented" // cases ran, no implementation passes them
	StatusContested     = "contested"     // implementations disagree (outcome or reading)
	StatusAgreed        = "agreed"        // every implementation that ran them passes
	StatusNotRun        = "not-run"       // cases exist but no run given has them
)

var statusText = map[string]string{
	StatusNoTest:        "no case yet",
	StatusNotTestable:   "not testable",
	StatusUnimplemented: "nobody implements",
	StatusContested:     "contested",
	StatusAgreed:        "all pass",
	StatusNotRun:        "not run",
}

var statusOrder = []string{StatusUnimplemented, StatusContested, StatusNoTest, StatusNotTestable, StatusNotRun, StatusAgreed}

// Annotation is what the annotated draft says about one sentence.
type Annotation struct {
	Sentence Sentence
	Level    clause.Level
	Clauses  []string
	Cases    []string
	Verdicts []Verdict
	Status   string
	// NotTestable: why no case can cover the sentence (StatusNotTestable).
	NotTestable string
}

// Annotations computes the annotation of every normative (or anchored)
// sentence of d, keyed by sentence index.
func Annotations(d *Doc, cat *Catalog, profile string, impls []*Impl) map[int]*Annotation {
	anchored := cat.byHash(profile)
	out := map[int]*Annotation{}
	for _, s := range d.Sentences {
		ids := anchored[s.Hash]
		s = promote(s, ids)
		if !s.Normative() {
			continue
		}
		a := &Annotation{Sentence: s, Level: s.Level, Clauses: ids, Cases: cat.casesOfAll(ids)}
		a.NotTestable = cat.notTestable(ids, a.Cases)
		if len(a.Cases) > 0 {
			for _, im := range impls {
				a.Verdicts = append(a.Verdicts, im.Verdict(a.Cases))
			}
		}
		a.Status = statusOf(a)
		out[s.Index] = a
	}
	return out
}

func statusOf(a *Annotation) string {
	if a.NotTestable != "" {
		return StatusNotTestable
	}
	if len(a.Cases) == 0 {
		return StatusNoTest
	}
	ran, pass, fail := 0, 0, 0
	readings := map[string]bool{}
	for _, v := range a.Verdicts {
		if v.Outcome == OutcomeNotRun || v.Outcome == OutcomeSkipped {
			continue
		}
		ran++
		switch v.Outcome {
		case OutcomePass:
			pass++
		case OutcomeFail:
			fail++
		}
		readings[strings.Join(v.Readings, "\x00")] = true
	}
	switch {
	case ran == 0:
		return StatusNotRun
	case pass > 0 && fail > 0, pass > 0 && len(readings) > 1:
		return StatusContested
	case pass == 0:
		return StatusUnimplemented
	case pass == ran:
		return StatusAgreed
	}
	// Some pass, the rest blocked or unsupported: not everyone implements it.
	return StatusContested
}

const annotateCSS = pageCSS + `
.s{border-bottom:2px solid transparent}.st-no-test{background:#fff4c2}.st-unimplemented{background:#ffd9d9}
.st-contested{background:#ffe3c2}.st-not-testable{background:#f0f0f0}.st-agreed{background:#e3f5e3}.st-not-run{background:#eceff7}
sup.m a{text-decoration:none;font-size:.75em;color:#555}.notes{margin:.2em 0 1em 1em;font-size:.85em;border-left:3px solid #ddd;padding-left:.6em}
.note{margin:.15em 0}.chip{display:inline-block;border-radius:3px;padding:0 .35em;margin:0 .15em;font-size:.9em;border:1px solid #ccc}
.o-pass{background:#d7f0d7}.o-fail{background:#f7caca}.o-blocked{background:#e4e4e4}.o-unsupported{background:#f3e6c4}.o-skipped,.o-not-run{background:#f5f5f5;color:#777}
pre{background:#f7f7f7;padding:.6em;overflow:auto}.legend span{margin-right:1em;padding:0 .3em}`

// Annotate renders d as one self-contained HTML page: the draft's text,
// each normative sentence highlighted by its status and followed by a
// note with its level, clauses, cases and each implementation's outcome
// and the readings it took.
func Annotate(w io.Writer, d *Doc, cat *Catalog, profile, profileBy string, impls []*Impl) error {
	ann := Annotations(d, cat, profile, impls)
	bySentence := map[int][]Sentence{} // block → its sentences
	for _, s := range d.Sentences {
		bySentence[s.Block] = append(bySentence[s.Block], s)
	}
	var b strings.Builder
	title := d.Title
	if title == "" {
		title = d.Name
	}
	fmt.Fprintf(&b, "<!doctype html><html><head><meta charset=\"utf-8\"><title>%s — annotated</title><style>%s</style></head><body>\n", esc(title), annotateCSS)
	fmt.Fprintf(&b, "<h1>%s — annotated</h1>\n<p>Draft <b>%s</b>; profile <b>%s</b> (%s).", esc(title), esc(d.Name), esc(profileOr(profile)), esc(profileBy))
	if len(impls) > 0 {
		var names []string
		for _, im := range impls {
			names = append(names, im.Name)
		}
		fmt.Fprintf(&b, " Implementations: %s.", esc(strings.Join(names, ", ")))
	} else {
		b.WriteString(" No results given: only cases are shown.")
	}
	b.WriteString("</p>\n")
	// Summary.
	count := map[string]int{}
	var idx []int
	for i := range ann {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		count[ann[i].Status]++
	}
	b.WriteString("<p class=legend>")
	for _, st := range statusOrder {
		fmt.Fprintf(&b, "<span class=st-%s>%s: %d</span>", st, statusText[st], count[st])
	}
	b.WriteString("</p>\n")
	for _, st := range []string{StatusUnimplemented, StatusContested, StatusNoTest, StatusNotTestable} {
		if count[st] == 0 {
			continue
		}
		fmt.Fprintf(&b, "<details><summary>%s (%d)</summary><ul>", statusText[st], count[st])
		for _, i := range idx {
			if a := ann[i]; a.Status == st {
				fmt.Fprintf(&b, "<li><a href=\"#s%d\">%s</a> [%s] %s</li>", i, esc(a.Sentence.Where()), a.Level, esc(a.Sentence.Text))
			}
		}
		b.WriteString("</ul></details>\n")
	}
	b.WriteString("<hr>\n")

	// The draft.
	var pendingNotes []int
	flushNotes := func() {
		if len(pendingNotes) == 0 {
			return
		}
		b.WriteString("<div class=notes>")
		for _, i := range pendingNotes {
			writeNote(&b, i, ann[i])
		}
		b.WriteString("</div>\n")
		pendingNotes = nil
	}
	listOpen, tableOpen := "", -1
	closeContainers := func() {
		if listOpen != "" {
			fmt.Fprintf(&b, "</%s>\n", listOpen)
			listOpen = ""
		}
		if tableOpen >= 0 {
			b.WriteString("</table>\n")
			tableOpen = -1
		}
	}
	for bi, blk := range d.Blocks {
		if blk.Kind != KindListItem && listOpen != "" || blk.Kind != KindTableRow && tableOpen >= 0 || blk.Kind == KindTableRow && tableOpen >= 0 && tableOpen != blk.Table {
			closeContainers()
			flushNotes()
		}
		switch blk.Kind {
		case KindHeading:
			flushNotes()
			lv := blk.Level
			if lv < 1 || lv > 6 {
				lv = 2
			}
			fmt.Fprintf(&b, "<h%d>%s</h%d>\n", lv, renderInline(blk.Text), lv)
		case KindCode:
			flushNotes()
			fmt.Fprintf(&b, "<pre><code>%s</code></pre>\n", esc(blk.Text))
		case KindParagraph:
			b.WriteString("<p>")
			if blk.Lead != "" {
				fmt.Fprintf(&b, "<strong>%s.</strong> ", renderInline(blk.Lead))
			}
			pendingNotes = append(pendingNotes, renderSentences(&b, blk, bySentence[bi], ann)...)
			b.WriteString("</p>\n")
			flushNotes()
		case KindListItem:
			tag := "ul"
			if blk.Ordered {
				tag = "ol"
			}
			if listOpen != tag {
				closeContainers()
				fmt.Fprintf(&b, "<%s>\n", tag)
				listOpen = tag
			}
			fmt.Fprintf(&b, "<li style=\"margin-left:%dem\">", blk.Level*1)
			pendingNotes = append(pendingNotes, renderSentences(&b, blk, bySentence[bi], ann)...)
			b.WriteString("</li>\n")
		case KindTableRow:
			if tableOpen != blk.Table {
				b.WriteString("<table>\n")
				tableOpen = blk.Table
			}
			cell := "td"
			if blk.Header {
				cell = "th"
			}
			b.WriteString("<tr>")
			var notes []int
			for ci, c := range blk.Cells {
				fmt.Fprintf(&b, "<%s>", cell)
				if ci == 0 {
					for _, s := range bySentence[bi] {
						if a := ann[s.Index]; a != nil {
							fmt.Fprintf(&b, "<span class=\"s st-%s\" id=\"s%d\">", a.Status, s.Index)
							notes = append(notes, s.Index)
						}
					}
				}
				b.WriteString(renderInline(c))
				if ci == 0 && len(notes) > 0 {
					fmt.Fprintf(&b, "</span><sup class=m><a href=\"#n%d\">[%d]</a></sup>", notes[0], notes[0]+1)
				}
				fmt.Fprintf(&b, "</%s>", cell)
			}
			b.WriteString("</tr>\n")
			pendingNotes = append(pendingNotes, notes...)
		}
	}
	closeContainers()
	flushNotes()
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func profileOr(p string) string {
	if p == "" {
		return "(none)"
	}
	return p
}

// renderSentences writes a block's text with its annotated sentences
// wrapped, and returns the indices whose notes follow the block.
func renderSentences(b *strings.Builder, blk Block, ss []Sentence, ann map[int]*Annotation) []int {
	var notes []int
	pos := 0
	for _, s := range ss {
		if s.Start > pos {
			b.WriteString(renderInline(blk.Text[pos:s.Start]))
		}
		text := renderInline(blk.Text[s.Start:s.End])
		if a := ann[s.Index]; a != nil {
			fmt.Fprintf(b, "<span class=\"s st-%s\" id=\"s%d\" title=\"%s\">%s</span><sup class=m><a href=\"#n%d\">[%d]</a></sup>",
				a.Status, s.Index, esc(string(a.Level)+" · "+statusText[a.Status]), text, s.Index, s.Index+1)
			notes = append(notes, s.Index)
		} else {
			b.WriteString(text)
		}
		pos = s.End
	}
	if pos < len(blk.Text) {
		b.WriteString(renderInline(blk.Text[pos:]))
	}
	return notes
}

func writeNote(b *strings.Builder, i int, a *Annotation) {
	fmt.Fprintf(b, "<div class=note id=\"n%d\"><a href=\"#s%d\">[%d]</a> <span class=lvl>%s</span> · <span class=st-%s>%s</span>", i, i, i+1, a.Level, a.Status, statusText[a.Status])
	if len(a.Clauses) > 0 {
		fmt.Fprintf(b, " · clauses %s", esc(strings.Join(a.Clauses, ", ")))
	} else {
		b.WriteString(" · no clause")
	}
	if len(a.Cases) > 0 {
		fmt.Fprintf(b, " · cases %s", esc(strings.Join(a.Cases, ", ")))
	} else if a.NotTestable != "" {
		fmt.Fprintf(b, " · not testable: %s", esc(a.NotTestable))
	} else if len(a.Clauses) > 0 {
		b.WriteString(" · no case yet")
	}
	for _, v := range a.Verdicts {
		fmt.Fprintf(b, " <span class=\"chip o-%s\" title=\"%s\">%s: %s", strings.ReplaceAll(v.Outcome, " ", "-"), esc(byCaseText(v)), esc(v.Impl), esc(v.Outcome))
		if len(v.Readings) > 0 {
			fmt.Fprintf(b, " — reading: %s", esc(strings.Join(v.Readings, "; ")))
		}
		b.WriteString("</span>")
	}
	if a.Sentence.Unsure != "" {
		fmt.Fprintf(b, " · <i>%s</i>", esc(a.Sentence.Unsure))
	}
	b.WriteString("</div>")
}

func byCaseText(v Verdict) string {
	var ids []string
	for id := range v.ByCase {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var parts []string
	for _, id := range ids {
		parts = append(parts, id+": "+v.ByCase[id])
	}
	return strings.Join(parts, "\n")
}

var (
	reStrong  = regexp.MustCompile(`\*\*([^*]+)\*\*|__([^_]+)__`)
	reEmStar  = regexp.MustCompile(`(^|[^\w*])\*([^*\s][^*]*)\*`)
	reEmUnder = regexp.MustCompile(`(^|[^\w])_([^_\s][^_]*)_([^\w]|$)`)
	reALink   = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
)

// renderInline turns inline Markdown into HTML: code spans, strong and
// emphasis, links (http, https and in-page only); everything else escaped.
func renderInline(s string) string {
	var b strings.Builder
	last := 0
	for _, sp := range codeSpans(s) {
		b.WriteString(renderProse(s[last:sp[0]]))
		inner := strings.Trim(s[sp[0]:sp[1]], "`")
		fmt.Fprintf(&b, "<code>%s</code>", esc(inner))
		last = sp[1]
	}
	b.WriteString(renderProse(s[last:]))
	return b.String()
}

func renderProse(s string) string {
	t := esc(s)
	t = reALink.ReplaceAllStringFunc(t, func(m string) string {
		g := reALink.FindStringSubmatch(m)
		href := g[2]
		if !(strings.HasPrefix(href, "http://") || strings.HasPrefix(href, "https://") || strings.HasPrefix(href, "#")) {
			return g[1]
		}
		return `<a href="` + href + `">` + g[1] + `</a>`
	})
	t = reStrong.ReplaceAllString(t, "<strong>$1$2</strong>")
	t = reEmStar.ReplaceAllString(t, "$1<em>$2</em>")
	t = reEmUnder.ReplaceAllString(t, "$1<em>$2</em>$3")
	return t
}
