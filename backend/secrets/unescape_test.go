package secrets

import (
	"strings"
	"testing"
)

// TestDecodedViewMapsBack: the text the rules see has its escapes decoded
// at every depth, and each of its offsets maps back to the start of the
// escape (of the outermost depth) that produced it.
func TestDecodedViewMapsBack(t *testing.T) {
	for _, c := range []struct {
		raw, view string
		toRaw     map[int]int // view offset → raw offset
	}{
		{raw: `plain text`, view: "plain text", toRaw: map[int]int{0: 0, 5: 5, 10: 10}},
		{raw: `a\nb`, view: "a\nb", toRaw: map[int]int{1: 1, 2: 3, 3: 4}},
		{raw: `a\\nb`, view: "a\nb", toRaw: map[int]int{1: 1, 2: 4}},   // twice escaped
		{raw: `a\\\\nb`, view: "a\nb", toRaw: map[int]int{1: 1, 2: 6}}, // three times
		{raw: `x\"k\":\"v\"`, view: `x"k":"v"`, toRaw: map[int]int{1: 1, 2: 3, 5: 7}},
		{raw: `\u00e9x`, view: "éx", toRaw: map[int]int{0: 0, 1: 0, 2: 6}},  // a byte inside é maps to its escape
		{raw: `\ud83d\ude00!`, view: "😀!", toRaw: map[int]int{0: 0, 4: 12}}, // a surrogate pair
		{raw: `C:\xyz\q`, view: `C:\xyz\q`, toRaw: map[int]int{3: 3}},       // no escape: kept
		{raw: `end\`, view: `end\`, toRaw: map[int]int{3: 3}},
		{raw: `a\u003cb`, view: "a<b", toRaw: map[int]int{1: 1, 2: 7}},
	} {
		sc := &scan{}
		view, levels := sc.decoded([]byte(c.raw))
		if string(view) != c.view {
			t.Errorf("%s: view %q, want %q", c.raw, view, c.view)
			continue
		}
		for d, want := range c.toRaw {
			got, _ := toRaw(span{start: d, end: d + 1, ctx: d}, levels)
			if got.start != want {
				t.Errorf("%s: view offset %d maps to %d, want %d", c.raw, d, got.start, want)
			}
		}
	}
}

// TestEscapeStart: a cut inside an escape moves back to its start; a cut
// between escapes, or after an escaped backslash, stays.
func TestEscapeStart(t *testing.T) {
	p := []byte(`ab\ncd\\ef\u00e9g`)
	for i, want := range map[int]int{
		2: 2, 3: 2, 4: 4, // \n
		6: 6, 7: 6, 8: 8, // \\ is one escape
		10: 10, 11: 10, 14: 10, 15: 10, 16: 16, // \u00e9
	} {
		if got := escapeStart(p, i); got != want {
			t.Errorf("escapeStart(%q, %d) = %d, want %d", p, i, got, want)
		}
	}
	if got := escapeStart([]byte(`abc\`), 4); got != 3 {
		t.Errorf("a backslash ending the text: %d, want 3", got)
	}
}

// TestNumberedLinesStartLines: the number before each line of cat -n or
// claude's Read view ends with a line break in the text the rules see.
func TestNumberedLinesStartLines(t *testing.T) {
	raw := "     1\u2192first\n     2\tsecond\n  not 3\u2192numbered\n12\u2192x"
	sc := &scan{}
	view, levels := sc.decoded([]byte(raw))
	want := "     1\nfirst\n     2\nsecond\n  not 3\u2192numbered\n12\nx"
	if string(view) != want {
		t.Fatalf("view %q, want %q", view, want)
	}
	at := strings.Index(string(view), "second")
	if got, _ := toRaw(span{start: at, end: at + 6}, levels); raw[got.start:got.end] != "second" {
		t.Errorf("maps back to %q", raw[got.start:got.end])
	}
}

// TestKeyBodyAtEveryDepth: a private key's body is read through line
// breaks escaped any number of times and the line numbers of a numbered
// view.
func TestKeyBodyAtEveryDepth(t *testing.T) {
	body := strings.Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2", 3)
	for _, sep := range []string{"\n", `\n`, `\\n`, `\\\\n`, "\n     7\t", `\n     7→`, `\\n     7\\t`} {
		text := sep + body + sep + body + sep + "-----END RSA PRIVATE KEY-----" + sep + "after"
		n, closed := keyBodyLen([]byte(text))
		if !closed || !strings.HasSuffix(text[:n], "-----END RSA PRIVATE KEY-----") {
			t.Errorf("separator %q: read %q, closed %v", sep, text[:n], closed)
		}
	}
}
