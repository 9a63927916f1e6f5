package labels

import (
	"fmt"
	"strings"
)

// LabelSweepValue is one value of the grammar sweep.
type LabelSweepValue struct {
	Name, Value string
	Control     bool // holds an ASCII control byte (may fail generic admission)
}

// LabelSweepValues lists every disallowed ASCII byte in first, middle and
// last position (the first position also excludes the punctuation the
// pattern allows only after the first byte), a trailing newline among them,
// and 2-, 3- and 4-byte UTF-8 characters in each position.
func LabelSweepValues() []LabelSweepValue {
	inner := func(b byte) bool {
		return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || strings.IndexByte("._:/-", b) >= 0
	}
	first := func(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
	var out []LabelSweepValue
	add := func(pos, piece string, control bool) {
		var v string
		switch pos {
		case "first":
			v = piece + "a0"
		case "middle":
			v = "a" + piece + "0"
		default:
			v = "a0" + piece
		}
		out = append(out, LabelSweepValue{fmt.Sprintf("%s %+q", pos, piece), v, control})
	}
	for _, pos := range []string{"first", "middle", "last"} {
		for b := 0; b < 0x80; b++ {
			ok := inner(byte(b))
			if pos == "first" {
				ok = first(byte(b))
			}
			if !ok {
				add(pos, string(rune(b)), b < 0x20 || b == 0x7f)
			}
		}
		for _, mb := range []string{"é", "€", "😀"} {
			add(pos, mb, false)
		}
	}
	// Length boundaries in bytes with a multibyte character: 64 bytes in 63
	// characters, and 64 characters in 65 bytes (both invalid as non-ASCII).
	out = append(out,
		LabelSweepValue{"64 bytes ending in a 2-byte character", strings.Repeat("a", 62) + "é", false},
		LabelSweepValue{"64 characters ending in a 2-byte character", strings.Repeat("a", 63) + "é", false},
		LabelSweepValue{"64 bytes of 4-byte characters after one letter", "a" + strings.Repeat("😀", 15) + "aaa", false},
	)
	return out
}
