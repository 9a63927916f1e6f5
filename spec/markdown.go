package spec

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind is the kind of a block of a draft.
type Kind int

// Block kinds.
const (
	KindHeading Kind = iota
	KindParagraph
	KindListItem
	KindTableRow
	KindCode
)

func (k Kind) String() string {
	switch k {
	case KindHeading:
		return "heading"
	case KindParagraph:
		return "paragraph"
	case KindListItem:
		return "list item"
	case KindTableRow:
		return "table row"
	case KindCode:
		return "code"
	}
	return "?"
}

// Block is one structural unit of a draft.
type Block struct {
	Kind  Kind
	Level int // heading level 1..6; list nesting depth from 0
	// Text is the inline Markdown of a heading, paragraph or list item, its
	// lines joined by single spaces; for a table row its cells joined by
	// " | "; for code the lines as written.
	Text    string
	Cells   []string // table rows only
	Header  bool     // table rows: the row names the columns
	Table   int      // table rows: rows of one table share this number
	Ordered bool     // list items: numbered
	// Lead is a run-in heading: "**Creator.** The relay …" has Lead
	// "Creator" and Text "The relay …".
	Lead    string
	Line    int // first source line, from 1
	EndLine int // last source line
	Section int // index of the heading block the block falls under, -1 before any
}

// Doc is a parsed draft.
type Doc struct {
	Name   string
	Title  string // the headings before the first prose paragraph, joined by " — "
	Blocks []Block
	// PlainHeadings is true when the draft has no Markdown headings and
	// headings were inferred from its layout (a short, unpunctuated line
	// standing alone between blank lines).
	PlainHeadings bool
	Sentences     []Sentence
	titleBlocks   map[int]bool
}

var (
	reATX       = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$`)
	reSetext1   = regexp.MustCompile(`^ {0,3}=+[ \t]*$`)
	reSetext2   = regexp.MustCompile(`^ {0,3}-+[ \t]*$`)
	reThematic  = regexp.MustCompile(`^ {0,3}((\*[ \t]*){3,}|(-[ \t]*){3,}|(_[ \t]*){3,})$`)
	reListItem  = regexp.MustCompile(`^([ \t]*)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*)|[ \t]*$)`)
	reDelimCell = regexp.MustCompile(`^:?-+:?$`)
	reTSV       = regexp.MustCompile(`\S\t+\S`)
	reRunIn     = regexp.MustCompile(`^(\*\*|__)([^*_]{1,80}?)(\*\*|__)[ \t]*`)
)

// Parse reads a draft. It accepts CommonMark-style Markdown (ATX and setext
// headings, paragraphs, lists, pipe tables, fenced and indented code) and
// the looser layouts drafts are exchanged in: paragraphs without blank
// lines between them, tab-separated tables, unfenced JSON, and plain-text
// drafts whose headings are bare lines.
func Parse(name string, src []byte) *Doc {
	text := strings.TrimPrefix(string(src), "\ufeff")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	lines := strings.Split(text, "\n")
	p := &parser{lines: lines, plain: !hasMarkdownHeadings(lines), table: -1}
	p.run()
	d := &Doc{Name: name, Blocks: p.blocks, PlainHeadings: p.plain}
	d.linkSections()
	d.findTitle()
	d.Sentences = extract(d)
	return d
}

// hasMarkdownHeadings reports whether any line outside code fences is an
// ATX heading or a setext underline below a text line.
func hasMarkdownHeadings(lines []string) bool {
	fence := ""
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if f := fenceOf(l); f != "" {
			fence = f
			continue
		}
		if reATX.MatchString(l) && strings.HasPrefix(t, "#") {
			return true
		}
		if i > 0 && strings.TrimSpace(lines[i-1]) != "" && !reListItem.MatchString(lines[i-1]) &&
			!strings.HasPrefix(strings.TrimSpace(lines[i-1]), "|") &&
			(reSetext1.MatchString(l) || (reSetext2.MatchString(l) && len(t) >= 2)) {
			return true
		}
	}
	return false
}

// fenceOf returns the fence ("```" or "~~~") a line opens, or "".
func fenceOf(l string) string {
	if indentOf(l) >= 4 {
		return ""
	}
	t := strings.TrimSpace(l)
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, f) {
			n := 0
			for n < len(t) && t[n] == f[0] {
				n++
			}
			return t[:n]
		}
	}
	return ""
}

func indentOf(l string) int {
	n := 0
	for _, r := range l {
		switch r {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n
		}
	}
	return n
}

type parser struct {
	lines  []string
	plain  bool
	blocks []Block
	// open is the paragraph or list item being collected, nil if none.
	open      *Block
	openLines []string
	// blankBefore: a blank line (or the start) precedes the open block.
	blankBefore bool
	// blank: the previous line was blank.
	blank  bool
	table  int // number of the open table, -1 if none
	tables int
	// listIndent is the content column of the open list item.
	listIndent int
}

// run splits the source lines into blocks, one line at a time, and closes
// the block still open at the end.
func (p *parser) run() {
	p.blank = true
	for i := 0; i < len(p.lines); i++ {
		i = p.line(i)
	}
	p.close(len(p.lines))
}

// line reads source line i (0-based) as the first construct it can start
// or continue, in CommonMark's order of precedence, and returns the index
// of the last line it consumed (a code block or comment spans several).
func (p *parser) line(i int) int {
	line := p.lines[i]
	t := strings.TrimSpace(line)
	ind := indentOf(line)
	lineNo := i + 1

	if t == "" {
		p.close(lineNo - 1)
		p.endTable()
		p.blank = true
		return i
	}
	wasBlank := p.blank
	p.blank = false

	switch {
	case fenceOf(line) != "":
		return p.fencedCode(i, fenceOf(line))
	case strings.HasPrefix(t, "<!--"):
		return p.htmlComment(i)
	case p.atxHeading(line, t, lineNo):
	case p.setextUnderline(line, t, lineNo):
	case reThematic.MatchString(line) && !strings.Contains(t, "|"):
		p.close(lineNo - 1)
		p.endTable()
	case strings.HasPrefix(t, "|") || (ind < 4 && reTSV.MatchString(t) && !(p.open != nil && p.open.Kind == KindListItem)):
		p.tableRow(t, lineNo)
	default:
		p.endTable()
		switch {
		case p.listItem(line, lineNo, wasBlank):
		case p.listContinuation(t, ind, wasBlank):
		case ind >= 4 && p.open == nil && wasBlank:
			return p.indentedCode(i)
		default:
			p.paragraphText(t, lineNo, wasBlank)
		}
	}
	return i
}

// fencedCode reads a fenced code block opened at line i with fence f, up
// to its closing fence (or the end of the file), and returns the index of
// its last line.
func (p *parser) fencedCode(i int, f string) int {
	lineNo := i + 1
	p.close(lineNo - 1)
	p.endTable()
	var body []string
	j := i + 1
	for ; j < len(p.lines); j++ {
		if strings.HasPrefix(strings.TrimSpace(p.lines[j]), f) && strings.Trim(strings.TrimSpace(p.lines[j]), string(f[0])) == "" {
			break
		}
		body = append(body, p.lines[j])
	}
	end := j + 1
	if j >= len(p.lines) {
		end = len(p.lines)
	}
	p.blocks = append(p.blocks, Block{Kind: KindCode, Text: strings.Join(body, "\n"), Line: lineNo, EndLine: end})
	p.blank = false
	return j
}

// htmlComment skips an HTML comment opened at line i (not part of the
// text) and returns the index of the line that closes it.
func (p *parser) htmlComment(i int) int {
	p.close(i)
	j := i
	for ; j < len(p.lines) && !strings.Contains(p.lines[j], "-->"); j++ {
	}
	return j
}

// atxHeading reads a "# Heading" line; it reports whether the line was
// one.
func (p *parser) atxHeading(line, t string, lineNo int) bool {
	m := reATX.FindStringSubmatch(line)
	if m == nil || !strings.HasPrefix(t, "#") {
		return false
	}
	p.close(lineNo - 1)
	p.endTable()
	p.blocks = append(p.blocks, Block{Kind: KindHeading, Level: len(m[1]), Text: strings.TrimSpace(m[2]), Line: lineNo, EndLine: lineNo})
	return true
}

// setextUnderline turns the open paragraph into a heading when line
// underlines it (=== level 1, --- level 2); it reports whether it did.
func (p *parser) setextUnderline(line, t string, lineNo int) bool {
	if p.open == nil || p.open.Kind != KindParagraph || !(reSetext1.MatchString(line) || (reSetext2.MatchString(line) && len(t) >= 2)) {
		return false
	}
	h := *p.open
	h.Kind = KindHeading
	h.Level = 1
	if t[0] == '-' {
		h.Level = 2
	}
	h.Text = strings.Join(trimAll(p.openLines), " ")
	h.EndLine = lineNo
	p.blocks = append(p.blocks, h)
	p.open, p.openLines = nil, nil
	return true
}

// tableRow reads a table row: a pipe row, or a tab-separated row of a
// plain-text export. A delimiter row marks the row above as the header; a
// tab-separated table's first row is its header.
func (p *parser) tableRow(t string, lineNo int) {
	p.close(lineNo - 1)
	var cells []string
	if strings.HasPrefix(t, "|") {
		cells = splitPipeRow(t)
	} else {
		for _, c := range strings.Split(t, "\t") {
			if c = strings.TrimSpace(c); c != "" {
				cells = append(cells, c)
			}
		}
	}
	if p.table < 0 {
		p.tables++
		p.table = p.tables
	}
	if isDelimiterRow(cells) {
		// The row above names the columns.
		if n := len(p.blocks); n > 0 && p.blocks[n-1].Kind == KindTableRow && p.blocks[n-1].Table == p.table {
			p.blocks[n-1].Header = true
		}
		return
	}
	header := false
	if !strings.HasPrefix(t, "|") {
		// A tab-separated table has no delimiter row: its first
		// row names the columns.
		n := len(p.blocks)
		header = n == 0 || p.blocks[n-1].Kind != KindTableRow || p.blocks[n-1].Table != p.table
	}
	p.blocks = append(p.blocks, Block{Kind: KindTableRow, Cells: cells, Text: strings.Join(cells, " | "), Header: header, Table: p.table, Line: lineNo, EndLine: lineNo})
}

// listItem opens a list item when line starts one; it reports whether it
// did.
func (p *parser) listItem(line string, lineNo int, wasBlank bool) bool {
	m := reListItem.FindStringSubmatchIndex(line)
	if m == nil || reSetext2.MatchString(line) {
		return false
	}
	p.close(lineNo - 1)
	lead := line[m[2]:m[3]]
	marker := line[m[4]:m[5]]
	content := ""
	if m[6] >= 0 {
		content = line[m[6]:m[7]]
	}
	depth := indentOf(lead) / 2
	b := Block{Kind: KindListItem, Level: depth, Ordered: marker[0] >= '0' && marker[0] <= '9', Line: lineNo}
	p.open = &b
	p.openLines = []string{content}
	p.blankBefore = wasBlank
	p.listIndent = indentOf(lead) + len(marker) + 1
	return true
}

// listContinuation reopens the last list item for an indented line after
// a blank line (a later paragraph of the same item); it reports whether
// it did.
func (p *parser) listContinuation(t string, ind int, wasBlank bool) bool {
	if p.open != nil || !wasBlank || ind < 2 || len(p.blocks) == 0 || p.blocks[len(p.blocks)-1].Kind != KindListItem || ind < p.listIndent {
		return false
	}
	last := p.blocks[len(p.blocks)-1]
	p.blocks = p.blocks[:len(p.blocks)-1]
	p.open = &last
	p.openLines = []string{last.Text, t}
	return true
}

// indentedCode reads an indented code block starting at line i (after a
// blank line) and returns the index of its last non-blank line.
func (p *parser) indentedCode(i int) int {
	lineNo := i + 1
	body := []string{p.lines[i]}
	j := i + 1
	for ; j < len(p.lines); j++ {
		if strings.TrimSpace(p.lines[j]) != "" && indentOf(p.lines[j]) < 4 {
			break
		}
		body = append(body, p.lines[j])
	}
	for len(body) > 0 && strings.TrimSpace(body[len(body)-1]) == "" {
		body = body[:len(body)-1]
	}
	p.blocks = append(p.blocks, Block{Kind: KindCode, Text: strings.Join(body, "\n"), Line: lineNo, EndLine: lineNo + len(body) - 1})
	p.blank = false
	return lineNo + len(body) - 2
}

// paragraphText adds a line of prose (block quotes read as their
// content) to the open block, or opens a paragraph.
func (p *parser) paragraphText(t string, lineNo int, wasBlank bool) {
	for strings.HasPrefix(t, ">") {
		t = strings.TrimSpace(strings.TrimPrefix(t, ">"))
	}
	if p.open != nil {
		p.openLines = append(p.openLines, t)
		return
	}
	b := Block{Kind: KindParagraph, Line: lineNo}
	p.open = &b
	p.openLines = []string{t}
	p.blankBefore = wasBlank
}

// endTable ends the open table (the next row starts a new one).
func (p *parser) endTable() { p.table = -1 }

// close ends the open paragraph or list item at source line end.
func (p *parser) close(end int) {
	if p.open == nil {
		return
	}
	b := *p.open
	b.EndLine = end
	if b.EndLine < b.Line {
		b.EndLine = b.Line
	}
	lines := trimAll(p.openLines)
	b.Text = strings.Join(lines, " ")
	p.open, p.openLines = nil, nil
	if b.Kind == KindParagraph {
		first := lines[0]
		last := lines[len(lines)-1]
		switch {
		case looksLikeData(first, last):
			b.Kind = KindCode
			b.Text = strings.Join(lines, "\n")
		case p.plain && len(lines) == 1 && p.blankBefore && p.followedByBlank(b.Line) && looksLikeHeading(first):
			b.Kind = KindHeading
			b.Level = 2
		default:
			if m := reRunIn.FindStringSubmatch(b.Text); m != nil && m[1] == m[3] {
				label := strings.TrimSpace(m[2])
				rest := strings.TrimSpace(b.Text[len(m[0]):])
				if strings.HasPrefix(rest, ":") {
					label += ":"
					rest = strings.TrimSpace(rest[1:])
				}
				if rest != "" && (strings.HasSuffix(label, ".") || strings.HasSuffix(label, ":")) {
					b.Lead = strings.TrimSpace(strings.TrimRight(label, ".:"))
					b.Text = rest
				}
			}
		}
	}
	p.blocks = append(p.blocks, b)
}

// followedByBlank reports whether the line after source line n (1-based)
// is blank or the end of the file.
func (p *parser) followedByBlank(n int) bool {
	return n >= len(p.lines) || strings.TrimSpace(p.lines[n]) == ""
}

func trimAll(ls []string) []string {
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		out = append(out, "")
	}
	return out
}

// looksLikeData: a paragraph that is JSON (or another bracketed literal)
// written without a code fence.
func looksLikeData(first, last string) bool {
	if first == "" {
		return false
	}
	open := first[0] == '{' || first[0] == '['
	end := strings.TrimRight(last, ",")
	return open && end != "" && (end[len(end)-1] == '}' || end[len(end)-1] == ']')
}

// looksLikeHeading: a bare line of a plain-text draft that reads as a
// heading — a capitalised phrase of at most twelve words without closing
// punctuation, made mostly of letters.
func looksLikeHeading(t string) bool {
	if t == "" || len(t) > 90 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(t)
	if !unicode.IsUpper(r) {
		return false
	}
	if strings.ContainsAny(t[len(t)-1:], ".:;,!?") {
		return false
	}
	if len(strings.Fields(t)) > 12 {
		return false
	}
	letters, total := 0, 0
	for _, r := range t {
		total++
		if unicode.IsLetter(r) || r == ' ' {
			letters++
		}
	}
	return letters*10 >= total*7
}

// splitPipeRow splits "| a | `b|c` | d |" into cells, honouring code
// spans and escaped pipes.
func splitPipeRow(t string) []string {
	t = strings.TrimSpace(t)
	t = strings.TrimPrefix(t, "|")
	if strings.HasSuffix(t, "|") && !strings.HasSuffix(t, `\|`) {
		t = t[:len(t)-1]
	}
	var cells []string
	var cur strings.Builder
	inCode := false
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c == '\\' && i+1 < len(t) && t[i+1] == '|':
			cur.WriteByte('|')
			i++
		case c == '`':
			inCode = !inCode
			cur.WriteByte(c)
		case c == '|' && !inCode:
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	cells = append(cells, strings.TrimSpace(cur.String()))
	return cells
}

func isDelimiterRow(cells []string) bool {
	if len(cells) == 0 {
		return false
	}
	for _, c := range cells {
		if !reDelimCell.MatchString(strings.ReplaceAll(c, " ", "")) {
			return false
		}
	}
	return true
}

// linkSections points every block at the heading it falls under.
func (d *Doc) linkSections() {
	cur := -1
	for i := range d.Blocks {
		d.Blocks[i].Section = cur
		if d.Blocks[i].Kind == KindHeading {
			cur = i
			d.Blocks[i].Section = i
		}
	}
}

// findTitle takes the headings before the first prose paragraph (eight
// words or more) as the draft's title.
func (d *Doc) findTitle() {
	d.titleBlocks = map[int]bool{}
	var parts []string
	for i, b := range d.Blocks {
		if b.Kind == KindHeading {
			parts = append(parts, Plain(b.Text))
			d.titleBlocks[i] = true
			continue
		}
		if b.Kind == KindParagraph && len(strings.Fields(b.Text)) >= 8 {
			break
		}
	}
	d.Title = strings.Join(parts, " — ")
}

// Heading returns the plain text of the heading block i falls under, or "".
func (d *Doc) Heading(i int) string {
	if i < 0 || i >= len(d.Blocks) {
		return ""
	}
	s := d.Blocks[i].Section
	if s < 0 {
		return ""
	}
	return Plain(d.Blocks[s].Text)
}

// HeadingPath returns the headings block i falls under, outermost first.
func (d *Doc) HeadingPath(i int) []string {
	if i < 0 || i >= len(d.Blocks) {
		return nil
	}
	s := d.Blocks[i].Section
	if s < 0 {
		return nil
	}
	path := []string{Plain(d.Blocks[s].Text)}
	level := d.Blocks[s].Level
	for j := s - 1; j >= 0 && level > 1; j-- {
		if b := d.Blocks[j]; b.Kind == KindHeading && b.Level < level {
			path = append([]string{Plain(b.Text)}, path...)
			level = b.Level
		}
	}
	return path
}

// Headings returns the plain text of every heading, in order.
func (d *Doc) Headings() []string {
	var out []string
	for _, b := range d.Blocks {
		if b.Kind == KindHeading {
			out = append(out, Plain(b.Text))
		}
	}
	return out
}
