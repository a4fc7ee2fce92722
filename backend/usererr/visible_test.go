package usererr

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// A sentence that echoes the user's input shows its control characters
// and bytes that are not UTF-8 as escapes: a terminal escape, NUL or a
// backspace cannot reach a terminal or the window through an error.
func TestSentencesShowHiddenCharacters(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b]0;pwned\x07 is not a host": `\x1b]0;pwned\a is not a host.`,
		"a\x00b is bad":                  `a\x00b is bad.`,
		"\x1b[2J\x1b[31mred is bad":      `\x1b[2J\x1b[31mred is bad.`,
		"a\xff\xfeb is bad":              `a\xff\xfeb is bad.`,
		"undo\x08\x08\x08\x08done":       `undo\b\b\b\bdone.`,
		"c1 \u009b31m here":              `c1 \u009b31m here.`,
		"tabs\tand\nnewlines are spaces": "Tabs and newlines are spaces.",
		"ünïcödé stays":                  "Ünïcödé stays.",
	} {
		got, _ := Describe(errors.New(in))
		if got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
		if !utf8.ValidString(got) || strings.IndexFunc(got, unicode.IsControl) >= 0 {
			t.Errorf("%q: %q still hides something", in, got)
		}
	}
	long := strings.Repeat("\x1b", 500) + " end"
	if got := Clip(long); strings.ContainsRune(got, 0x1b) || !strings.HasSuffix(got, " end") {
		t.Errorf("a long run of escapes clipped to %q", got)
	}
}
