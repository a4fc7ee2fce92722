package secrets

import (
	"bytes"
	"slices"
	"sort"
	"unicode/utf16"
	"unicode/utf8"
)

// The rules see text as a reader would: an agent's stream-json line holds
// its output as a JSON string (a newline is \n, a quote \"), and a tool
// result that is itself a JSON document holds it twice escaped (\\n). A
// rule anchored at a line start, a value ended by a quote or a key's body
// broken into lines would see none of that in the raw bytes, so find runs
// the rules over the text with its backslash escapes decoded, as many
// times as it holds escapes (maxDepth at most), and maps what they find
// back to the bytes. A span found there covers whole escape sequences of
// every depth, so redacting it keeps the JSON valid at every depth.

// maxDepth bounds how many times escapes are decoded (a JSON string in a
// JSON string in a stream-json line is three).
const maxDepth = 4

// escape is one escape sequence decoded: raw[r:r+rn] became out[d:d+dn].
type escape struct {
	d, r, dn, rn int
}

// level is one decoding: the escapes it decoded, in order.
type level []escape

// toRaw maps an offset of the decoded text back to the text it was
// decoded from: a byte an escape produced maps to the escape's start.
func (l level) toRaw(d int) int {
	k := sort.Search(len(l), func(i int) bool { return l[i].d > d }) - 1
	if k < 0 {
		return d
	}
	e := l[k]
	if d < e.d+e.dn {
		return e.r
	}
	return e.r + e.rn + d - e.d - e.dn
}

// unescape appends p with its backslash escapes (JSON's: \n \t \r \b \f
// \" \\ \/ \uXXXX) decoded to dst and returns it with the escapes it
// decoded appended to esc. A backslash starting no escape is kept.
func unescape(dst, p []byte, esc level) ([]byte, level) {
	i := 0
	for i < len(p) {
		j := bytes.IndexByte(p[i:], '\\')
		if j < 0 {
			return append(dst, p[i:]...), esc
		}
		j += i
		dst = append(dst, p[i:j]...)
		var buf [utf8.UTFMax]byte
		out, rn := escapeAt(p, j, buf[:0])
		if rn == 0 { // not an escape: the backslash is text
			dst = append(dst, '\\')
			i = j + 1
			continue
		}
		esc = append(esc, escape{d: len(dst), r: j, dn: len(out), rn: rn})
		dst = append(dst, out...)
		i = j + rn
	}
	return dst, esc
}

// escapeAt decodes the escape starting at p[j] (a backslash) into out and
// returns it with the escape's length, 0 when none starts there.
func escapeAt(p []byte, j int, out []byte) ([]byte, int) {
	if j+1 >= len(p) {
		return out, 0
	}
	switch c := p[j+1]; c {
	case 'n':
		return append(out, '\n'), 2
	case 't':
		return append(out, '\t'), 2
	case 'r':
		return append(out, '\r'), 2
	case 'b':
		return append(out, '\b'), 2
	case 'f':
		return append(out, '\f'), 2
	case '"', '\\', '/':
		return append(out, c), 2
	case 'u':
		r, ok := hex4(p, j+2)
		if !ok {
			return out, 0
		}
		rn := 6
		if utf16.IsSurrogate(r) {
			r2, ok := hex4(p, j+8)
			if ok && j+7 < len(p) && p[j+6] == '\\' && p[j+7] == 'u' {
				if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
					r, rn = pair, 12
				}
			}
		}
		return utf8.AppendRune(out, r), rn
	}
	return out, 0
}

// hex4 reads four hex digits at p[i:].
func hex4(p []byte, i int) (rune, bool) {
	if i+4 > len(p) {
		return 0, false
	}
	var r rune
	for _, c := range p[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// decoded returns p with its escapes decoded (depth after depth while it
// holds any) and the levels that map its offsets back to p; p itself and
// no level when it holds none. The text lives in sc's buffers.
func (sc *scan) decoded(p []byte) ([]byte, []level) {
	sc.levels = sc.levels[:0]
	view := p
	for depth := 0; depth < maxDepth && bytes.IndexByte(view, '\\') >= 0; depth++ {
		if depth >= len(sc.escs) {
			sc.escs = append(sc.escs, nil)
		}
		buf := &sc.bufs[depth%2]
		next, esc := unescape(slices.Grow((*buf)[:0], len(view)), view, sc.escs[depth][:0])
		*buf, sc.escs[depth] = next, esc
		if len(esc) == 0 {
			break
		}
		sc.levels = append(sc.levels, esc)
		view = next
	}
	if numberedLikely(view) {
		k := len(sc.levels)
		if k >= len(sc.escs) {
			sc.escs = append(sc.escs, nil)
		}
		buf := &sc.bufs[k%2]
		next, esc := unnumber(slices.Grow((*buf)[:0], len(view)), view, sc.escs[k][:0])
		*buf, sc.escs[k] = next, esc
		if len(esc) > 0 {
			sc.levels = append(sc.levels, esc)
			view = next
		}
	}
	return view, sc.levels
}

// arrow separates a line's number from its text in claude's Read view.
const arrow = "\u2192"

// numberedLikely is a quick test for numbered lines (a tab or an arrow).
func numberedLikely(p []byte) bool {
	return bytes.IndexByte(p, '\t') >= 0 || bytes.Contains(p, []byte(arrow))
}

// unnumber appends p to dst with the separator after each line's number
// (cat -n's tab, claude's Read arrow) made a line break, so the file's
// line starts a line as it does in the file, and returns the separators
// replaced appended to esc.
func unnumber(dst, p []byte, esc level) ([]byte, level) {
	last := 0
	for ls := 0; ls < len(p); {
		if n, sep := lineNumberLen(p, ls); n > 0 {
			at := ls + n - sep
			dst = append(dst, p[last:at]...)
			esc = append(esc, escape{d: len(dst), r: at, dn: 1, rn: sep})
			dst = append(dst, '\n')
			last = ls + n
		}
		nl := bytes.IndexByte(p[ls:], '\n')
		if nl < 0 {
			break
		}
		ls += nl + 1
	}
	return append(dst, p[last:]...), esc
}

// lineNumberLen returns the length of a line number at p[i:] (blanks,
// 1 to 9 digits, then a tab or an arrow, plain or escaped at any depth)
// and of its separator; 0, 0 when none is there.
func lineNumberLen(p []byte, i int) (n, sep int) {
	j := i
	for j < len(p) && (p[j] == ' ' || p[j] == '\t') {
		j++
	}
	d := j
	for j < len(p) && j-d < 9 && p[j] >= '0' && p[j] <= '9' {
		j++
	}
	if j == d || j >= len(p) {
		return 0, 0
	}
	switch {
	case p[j] == '\t':
		return j + 1 - i, 1
	case bytes.HasPrefix(p[j:], []byte(arrow)):
		return j + len(arrow) - i, len(arrow)
	}
	k := j
	for k < len(p) && p[k] == '\\' {
		k++
	}
	switch {
	case k == j:
	case k < len(p) && p[k] == 't':
		return k + 1 - i, k + 1 - j
	case bytes.HasPrefix(p[k:], []byte("u2192")):
		return k + 5 - i, k + 5 - j
	}
	return 0, 0
}

// toRaw maps a span of the decoded text back through levels to the
// original bytes; ok is false when nothing of it is left there (a span
// inside the bytes of one escaped character).
func toRaw(s span, levels []level) (span, bool) {
	for i := len(levels) - 1; i >= 0; i-- {
		l := levels[i]
		s = span{start: l.toRaw(s.start), end: l.toRaw(s.end), ctx: l.toRaw(s.ctx)}
	}
	return s, s.end > s.start
}

// escapeStart moves i back to the start of an escape sequence it falls
// inside (a backslash run of odd length ends just before it, or a \uXXXX
// it cuts), so text cut there decodes the same in both halves.
func escapeStart(p []byte, i int) int {
	for k := max(0, i-11); k < i; k++ {
		if p[k] != '\\' || oddRunBefore(p, k) {
			continue
		}
		// An escape starts at k: where does it end?
		var buf [utf8.UTFMax]byte
		_, rn := escapeAt(p, k, buf[:0])
		switch {
		case rn > 0 && k+rn > i:
			return k
		case rn > 0:
			k += rn - 1
		case k+1 >= len(p) || p[k+1] == 'u' && len(p)-k < 6:
			return k // p ends inside it: the rest has not come yet
		}
	}
	return i
}

// oddRunBefore reports whether an odd number of backslashes comes just
// before p[k] (so p[k] is escaped).
func oddRunBefore(p []byte, k int) bool {
	n := 0
	for k-n-1 >= 0 && p[k-n-1] == '\\' {
		n++
	}
	return n%2 == 1
}
