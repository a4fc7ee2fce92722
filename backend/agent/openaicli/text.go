package openaicli

import (
	"bytes"
	"regexp"
	"sync"
	"unicode/utf8"
)

// MaxEventText bounds the text of one event so a huge tool output cannot
// flood the event sink; the raw transcript keeps everything.
const MaxEventText = 64 << 10

// Clip bounds s to MaxEventText bytes on a rune boundary.
func Clip(s string) string {
	if len(s) <= MaxEventText {
		return s
	}
	cut := MaxEventText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// escRe matches terminal escape sequences (CSI, OSC and two-byte escapes).
var escRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\x1b(?:\\[[0-?]*[ -/]*[@-~]|\\][^\x07\x1b]*(?:\x07|\x1b\\\\)?|[@-Z\\\\-_])")
})

// StripEscapes removes terminal escape sequences from b.
func StripEscapes(b []byte) []byte {
	if bytes.IndexByte(b, 0x1b) < 0 {
		return b
	}
	return escRe().ReplaceAll(b, nil)
}
