package cli

import (
	"fmt"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/task"
)

// safeLine returns s as one line that is safe to print to a terminal:
// control characters (line breaks, tabs and escape sequences included),
// direction overrides and invalid UTF-8 bytes are shown escaped (\x1b,
// \u202e, \xff) instead of acting on the terminal. One-line fields and
// messages that hold text from a user, a file, a repository or an agent go
// through it (or safeText) whatever the output is; on a terminal the
// output path (termout.go) escapes everything else too.
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
	return string(appendEscaped(nil, []byte(s), keepLines))
}

// appendEscaped appends p to dst with every character that would act on a
// terminal written out instead: \n, \t and \r, \x1b for the other ASCII
// controls, \u009b or \u202e for C1 controls, separators and direction
// overrides, \xff for each byte that is not UTF-8. With keepLines, line
// feeds and tabs are kept as they are.
func appendEscaped(dst, p []byte, keepLines bool) []byte {
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = fmt.Appendf(dst, `\x%02x`, p[i])
		case keepLines && (r == '\n' || r == '\t'):
			dst = append(dst, byte(r))
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case task.Unsafe(r) && r < 0x80:
			dst = fmt.Appendf(dst, `\x%02x`, r)
		case task.Unsafe(r):
			dst = fmt.Appendf(dst, `\u%04x`, r)
		default:
			dst = append(dst, p[i:i+n]...)
		}
		i += n
	}
	return dst
}
