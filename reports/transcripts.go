package reports

import (
	"encoding/json"
	"fmt"
	"html/template"
	"strconv"
	"strings"
)

// A long wire transcript makes an HTML report slow to open: a run with
// many failures against a relay that answers everything wrongly carries
// megabytes of them. The HTML reports therefore keep each long transcript
// once, in a JSON block the browser does not lay out, and show in its
// place a closed <details> with the first lines; opening it loads the
// whole transcript (a few lines of JavaScript). Short transcripts stay
// inline and open, as before. results.json keeps every transcript whole;
// of one over pageHead+pageTail lines a page keeps both ends and says so.

const (
	// lazyLines and lazyBytes: a transcript longer than either is loaded
	// when opened.
	lazyLines = 40
	lazyBytes = 4 << 10
	// previewLines is how many of its first lines show before it is opened.
	previewLines = 12
	// pageHead and pageTail: of a transcript longer than both together
	// (and a margin), a page keeps the first pageHead and the last
	// pageTail lines. The longest transcripts (a case publishing 550
	// events) are hundreds of KiB each; results.json keeps them whole.
	pageHead = 100
	pageTail = 40
)

// cutTranscript is t, or its first head and last tail lines with what was
// left out, and where the whole is, said between them.
func cutTranscript(t string, head, tail int) string {
	lines := strings.Split(t, "\n")
	if len(lines) <= head+tail+10 {
		return t
	}
	return strings.Join(lines[:head], "\n") + fmt.Sprintf("\n… %d lines left out here: the whole transcript is in results.json …\n", len(lines)-head-tail) + strings.Join(lines[len(lines)-tail:], "\n")
}

// pageTranscript is how a page shows one transcript: Key "" inline (Text),
// else by its key in the page's transcript block, with Preview and Lines.
type pageTranscript struct {
	Key     string
	Text    string
	Preview string
	Lines   int
}

// transcriptStore collects a page's long transcripts, each distinct text
// once.
type transcriptStore struct {
	keys  map[string]string
	texts map[string]string
}

// add returns how the page shows t, storing it when it is long.
func (s *transcriptStore) add(t string) pageTranscript {
	lines := strings.Count(t, "\n") + 1
	t = cutTranscript(t, pageHead, pageTail)
	if lines <= lazyLines && len(t) <= lazyBytes {
		return pageTranscript{Text: t, Lines: lines}
	}
	if s.keys == nil {
		s.keys, s.texts = map[string]string{}, map[string]string{}
	}
	key, ok := s.keys[t]
	if !ok {
		key = "t" + strconv.Itoa(len(s.keys))
		s.keys[t] = key
		s.texts[key] = t
	}
	preview := t
	for i, n := 0, 0; i < len(t); i++ {
		if t[i] == '\n' {
			if n++; n == previewLines {
				preview = t[:i]
				break
			}
		}
	}
	return pageTranscript{Key: key, Preview: preview, Lines: lines}
}

// Blob is the page's transcript block: a JSON object, key → text, safe
// inside a <script> element (json.Marshal escapes <, > and &).
func (s *transcriptStore) Blob() template.JS {
	if len(s.texts) == 0 {
		return ""
	}
	b, err := json.Marshal(s.texts)
	if err != nil {
		return ""
	}
	return template.JS(b)
}

// transcriptLoader is the page's JavaScript: a <details data-t=KEY> fills
// its <pre> with the whole transcript the first time it is opened.
const transcriptLoader = `<script>
(function(){var b=document.getElementById("nipcl-transcripts"),all=null;if(!b)return;
document.querySelectorAll("details[data-t]").forEach(function(d){d.addEventListener("toggle",function(){
if(!d.open||d.dataset.loaded)return;all=all||JSON.parse(b.textContent);
d.querySelector("pre").textContent=all[d.dataset.t];d.dataset.loaded="1";});});})();
</script>`
