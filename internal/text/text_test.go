package text

import (
	"reflect"
	"strings"
	"testing"
)

func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{
		"":                      "",
		"one":                   "one",
		"  one\ntwo\n":          "one",
		"\n\n  first  \nsecond": "first  ",
	} {
		if got := FirstLine(in); got != want {
			t.Errorf("FirstLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestOneLineAndClip(t *testing.T) {
	if got := OneLine(" a\n\tb  c \n"); got != "a b c" {
		t.Errorf("OneLine = %q, want %q", got, "a b c")
	}
	if got := Clip("abcdef", 3); got != "abc…" {
		t.Errorf("Clip = %q, want %q", got, "abc…")
	}
	if got := Clip("abc", 3); got != "abc" {
		t.Errorf("Clip at the limit = %q, want it unchanged", got)
	}
}

func TestLastLines(t *testing.T) {
	in := "a\n\n  b\nc\n\n   \nd\n"
	if got, want := LastLines(in, 3), []string{"  b", "c", "d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("LastLines(3) = %q, want %q", got, want)
	}
	if got, want := LastLines(in, 10), []string{"a", "  b", "c", "d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("LastLines(10) = %q, want %q", got, want)
	}
	if got := LastLines(" \n\n", 2); len(got) != 0 {
		t.Errorf("LastLines of blank text = %q, want none", got)
	}
}

func TestIsHex64(t *testing.T) {
	good := strings.Repeat("0a", 32)
	for s, want := range map[string]bool{
		good:                  true,
		strings.ToUpper(good): false,
		good[:63]:             false,
		good + "0":            false,
		"":                    false,
	} {
		if got := IsHex64(s); got != want {
			t.Errorf("IsHex64(%q) = %v, want %v", s, got, want)
		}
	}
}
