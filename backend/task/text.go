package task

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// MaxPrompt is the largest prompt accepted, in bytes.
const MaxPrompt = 16 << 20

// LineProblem says what makes s unfit for a one-line field shown in lists
// and terminals (a title, a label): invalid UTF-8, or a character that
// controls a terminal or the text's direction rather than being text. It
// returns "" when s fits. The problem completes "<field> …".
func LineProblem(s string) string {
	if !utf8.ValidString(s) {
		return "is not valid UTF-8 text"
	}
	for _, r := range s {
		if Unsafe(r) {
			return fmt.Sprintf("contains the control character %U; it must be one line of plain text", r)
		}
	}
	return ""
}

// Unsafe reports whether r must not be printed raw to a terminal: a C0 or
// C1 control character (line breaks, tab and escape included), DEL, a line
// or paragraph separator, or a bidirectional override or isolate (which
// can make text display in another order than it is stored).
func Unsafe(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r == '\u2028', r == '\u2029':
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}
