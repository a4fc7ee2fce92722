package secrets

import (
	"regexp/syntax"
	"unicode"
)

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// add adds the bytes of the runes lo..hi: their own below 0x80, every
// byte of a multi-byte character above.
func (s *byteSet) add(lo, hi rune) {
	if hi >= 0x80 {
		for c := 0x80; c < 0x100; c++ {
			s[c>>6] |= 1 << (c & 63)
		}
		hi = 0x7f
	}
	for c := max(lo, 0); c <= hi; c++ {
		s[c>>6] |= 1 << (c & 63)
	}
}

// anyValueByte is what a secret is assumed to be made of when its
// expression cannot tell: any printable byte but quotes, brackets and
// separators.
var anyValueByte = func() (s byteSet) {
	for c := 0x21; c < 0x100; c++ {
		switch c {
		case '\'', '"', '`', ';', ',', '{', '}', '[', ']', '(', ')', '\\':
			continue
		}
		s.add(rune(c), rune(c))
	}
	return s
}()

// secretBytes returns the bytes capture group of tree can be made of:
// what lets a template rule's quick test skip a value that cannot be its
// secret (a JSON key after a comma) before its regex runs.
func secretBytes(tree *syntax.Regexp, group int) byteSet {
	found := capture(tree, group)
	var s byteSet
	if group <= 0 || found == nil || !addBytes(&s, found) {
		return anyValueByte
	}
	return s
}

// addBytes adds to s every byte a match of re can hold; false when it
// cannot tell.
func addBytes(s *byteSet, re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			s.add(r, r)
			if re.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					s.add(f, f)
				}
			}
		}
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			s.add(re.Rune[i], re.Rune[i+1])
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		s.add(0, unicode.MaxRune)
	case syntax.OpCapture, syntax.OpConcat, syntax.OpAlternate, syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		for _, sub := range re.Sub {
			if !addBytes(s, sub) {
				return false
			}
		}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
	default:
		return false
	}
	return true
}
