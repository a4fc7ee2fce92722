package verify

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// TailLines is how many lines of output a failed run shows (in the
// developer's fix prompt, the section and the merge queue entry).
const TailLines = 200

// Limits of the tail kept in memory and of one shown line.
const (
	tailKeep    = 256 << 10
	maxLineShow = 1000
)

// tail keeps the last tailKeep bytes of a run's output.
type tail struct {
	mu  sync.Mutex
	buf []byte
	cut bool // bytes were dropped from the front
}

func (t *tail) write(p []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - tailKeep; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.cut = true
	}
}

// lines returns the last n lines of the output, cleaned for display.
func (t *tail) lines(n int) string {
	t.mu.Lock()
	b := append([]byte(nil), t.buf...)
	cut := t.cut
	t.mu.Unlock()
	return LastLines(string(b), n, cut)
}

var (
	csiRe = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]`)
	oscRe = regexp.MustCompile(`\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?`)
	escRe = regexp.MustCompile(`\x1b[@-Z\\-_]|\x1b.?`)
)

// LastLines cleans terminal output for display — escape sequences
// removed, carriage-return redraws reduced to the final text of their
// line, other control characters dropped, invalid UTF-8 replaced — and
// returns its last n lines, each at most 1000 bytes. partial says the
// text starts in the middle of a line, which is then dropped.
func LastLines(out string, n int, partial bool) string {
	out = strings.ToValidUTF8(out, "\uFFFD")
	out = oscRe.ReplaceAllString(out, "")
	out = csiRe.ReplaceAllString(out, "")
	out = escRe.ReplaceAllString(out, "")
	out = strings.ReplaceAll(out, "\r\n", "\n")
	lines := strings.Split(out, "\n")
	if partial && len(lines) > 1 {
		lines = lines[1:]
	}
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		if j := strings.LastIndexByte(strings.TrimRight(l, "\r"), '\r'); j >= 0 {
			l = l[j+1:]
		}
		l = strings.Map(func(r rune) rune {
			if r == '\t' || r >= ' ' && r != 0x7f && !(r >= 0x80 && r < 0xa0) {
				return r
			}
			return -1
		}, l)
		if len(l) > maxLineShow {
			cutAt := maxLineShow
			for cutAt > 0 && !utf8.RuneStart(l[cutAt]) {
				cutAt--
			}
			l = l[:cutAt] + "…"
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}
