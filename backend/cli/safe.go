package cli

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/task"
)

// safeLine returns s as one line that is safe to print to a terminal:
// control characters (line breaks, tabs and escape sequences included),
// direction overrides and invalid UTF-8 bytes are shown escaped (\x1b,
// \u202e, \xff) instead of acting on the terminal. Everything the CLI prints
// that came from a user, a file or an agent goes through it or safeText.
func safeLine(s string) string { return escape(s, false) }

// safeText is safeLine for multi-line text: line breaks and tabs are kept.
func safeText(s string) string { return escape(s, true) }

func escape(s string, keepLines bool) string {
	clean := true
	for i := 0; i < len(s) && clean; {
		r, n := utf8.DecodeRuneInString(s[i:])
		clean = !(r == utf8.RuneError && n == 1) && (!task.Unsafe(r) || keepLines && (r == '\n' || r == '\t'))
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case task.Unsafe(r) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case task.Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}
