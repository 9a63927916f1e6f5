package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unicode/utf8"
)

// MaxDraftSize is the largest draft the spec tools read (16 MiB). A NIP or
// a NIP-CL draft is tens of kilobytes; anything near the limit is not a
// draft, and refusing it early keeps a CI gate from spending minutes and
// gigabytes on a wrong file.
const MaxDraftSize = 16 << 20

// ErrNotADraft is wrapped by every error ReadDraft returns for a file that
// is not a draft (as opposed to one it could not read).
var ErrNotADraft = errors.New("not a draft")

// CheckDraftText tells why src is not a draft the spec tools can read, or
// returns nil: it must be non-blank UTF-8 text (a byte-order mark is
// allowed), at most MaxDraftSize bytes, neither UTF-16 nor binary nor a
// JSON document, and hold at least one sentence of prose. Each error is one
// line that says what the file is and what to do.
func CheckDraftText(src []byte) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrNotADraft}, a...)...)
	}
	if len(src) > MaxDraftSize {
		return bad("%d bytes, over the limit of %d (%d MiB); a draft is text of some kilobytes", len(src), MaxDraftSize, MaxDraftSize>>20)
	}
	if len(src) >= 2 && (src[0] == 0xff && src[1] == 0xfe || src[0] == 0xfe && src[1] == 0xff) {
		return bad("UTF-16 text (byte-order mark %02X %02X); save it as UTF-8", src[0], src[1])
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		if utf16Like(src) {
			return bad("UTF-16 text without a byte-order mark (every other byte is NUL); save it as UTF-8")
		}
		return bad("binary data (a NUL byte at offset %d), not text", i)
	}
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(src) {
		off := 0
		for off < len(src) {
			r, n := utf8.DecodeRune(src[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return bad("not UTF-8 text (invalid byte 0x%02X at offset %d); save it as UTF-8", src[off], off)
	}
	ctrl := 0
	for _, r := range string(src) {
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' && r != '\f' || r == 0x7f {
			ctrl++
		}
	}
	if ctrl > 0 && ctrl*100 > utf8.RuneCount(src) {
		return bad("binary data (%d control characters), not text", ctrl)
	}
	trimmed := bytes.TrimSpace(src)
	if len(trimmed) == 0 {
		if len(src) == 0 {
			return bad("the file is empty")
		}
		return bad("the file holds only white space")
	}
	if (trimmed[0] == '{' || trimmed[0] == '[') && json.Valid(trimmed) {
		return bad("a JSON document, not a Markdown or plain-text draft (a results.json goes to --results)")
	}
	return nil
}

// utf16Like reports whether the NUL bytes of src sit at every other
// position, as in UTF-16 text of mostly ASCII characters.
func utf16Like(src []byte) bool {
	n := len(src)
	if n > 4096 {
		n = 4096
	}
	even, odd := 0, 0
	for i := 0; i < n; i++ {
		if src[i] == 0 {
			if i%2 == 0 {
				even++
			} else {
				odd++
			}
		}
	}
	return even*3 >= n || odd*3 >= n
}

// ReadDraft reads and parses a draft after CheckDraftText; a draft in
// which no sentence of prose is found is refused too. Errors name the file
// and wrap ErrNotADraft when the file is not a draft.
func ReadDraft(path string) (*Doc, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Read one byte over the limit, so an oversized file is told from
	// one exactly at it without reading all of it.
	b, err := io.ReadAll(io.LimitReader(f, MaxDraftSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > MaxDraftSize {
		st, serr := f.Stat()
		size := int64(len(b))
		if serr == nil {
			size = st.Size()
		}
		return nil, fmt.Errorf("%s: %w: %d bytes or more, over the limit of %d (%d MiB); a draft is text of some kilobytes", path, ErrNotADraft, size, MaxDraftSize, MaxDraftSize>>20)
	}
	if err := CheckDraftText(b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d := Parse(filepath.Base(path), b)
	if len(d.Sentences) == 0 {
		return nil, fmt.Errorf("%s: %w: no sentence of prose found (only headings, code or tables of data)", path, ErrNotADraft)
	}
	return d, nil
}
