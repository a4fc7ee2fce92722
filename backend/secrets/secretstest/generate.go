package secretstest

import (
	"fmt"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"

	"github.com/boof-runner/boof-runner/backend/secrets"
)

// Generate makes an example of every regex rule: a line the rule as
// written reports (secrets.RegexRule.Reports: its expression, entropy and
// allowlists, as gitleaks runs it), with the secret it reports. The text
// is built from the rule's expression with a deterministic random source,
// retried with other choices until the rule reports exactly the secret
// built for its secret group. missed names the rules no try satisfied.
func Generate(rules []secrets.RegexRule) (samples []Sample, missed []string) {
	for _, r := range rules {
		re, err := syntax.Parse(r.Regex, syntax.Perl)
		if err != nil {
			missed = append(missed, r.ID+" (does not parse)")
			continue
		}
		group := r.SecretGroup
		switch {
		case group < 0:
			group = 0 // the whole match
		case group == 0 && re.MaxCap() > 0:
			group = 1
		}
		s, ok := generateOne(r, re, group)
		if !ok {
			missed = append(missed, r.ID)
			continue
		}
		samples = append(samples, s)
	}
	return samples, missed
}

// generateTries bounds the texts tried per rule.
const generateTries = 200

func generateOne(r secrets.RegexRule, re *syntax.Regexp, group int) (Sample, bool) {
	// The rule's keyword is in its match, or (facebook's) near it.
	for _, pre := range []string{"config:\n", "config:\n" + r.Keywords[0] + " "} {
		if s, ok := generateWith(r, re, group, pre); ok {
			return s, true
		}
	}
	return Sample{}, false
}

func generateWith(r secrets.RegexRule, re *syntax.Regexp, group int, pre string) (Sample, bool) {
	for try := 0; try < generateTries; try++ {
		g := &generator{seed: gen(fmt.Sprint(r.ID, try), 4096, alnum), group: group, rule: r.ID}
		g.walk(re, group == 0)
		if g.failed {
			continue
		}
		text := g.b.String()
		secret := text
		if group > 0 {
			secret = text[g.start:g.end]
		}
		if len(secret) < 8 || strings.ContainsAny(secret, " \t\r\n\"'`\\") || !utf8Printable(text) {
			continue
		}
		line := pre + text + "\n"
		if got := r.Reports(line); slices.Equal(got, []string{secret}) {
			return Sample{Name: "rule " + r.ID, Text: line, Secrets: []string{secret}}, true
		}
	}
	return Sample{}, false
}

// generator writes a text an expression matches, choosing from seed.
type generator struct {
	b          strings.Builder
	seed       string
	pos        int
	group      int
	rule       string
	start, end int
	failed     bool
}

// pick returns a choice in [0, n).
func (g *generator) pick(n int) int {
	if n <= 1 {
		return 0
	}
	c := int(g.seed[g.pos%len(g.seed)])<<8 | int(g.seed[(g.pos+1)%len(g.seed)])
	g.pos += 2
	return c % n
}

// safe are the bytes a generated secret is made of where its class
// allows: no quote, backslash or blank, so it reads the same escaped.
func safe(r rune) bool {
	return r < 0x7f && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_.+/=~@:", r))
}

// walk writes a text re matches; in says it is inside the secret.
func (g *generator) walk(re *syntax.Regexp, in bool) {
	if g.failed {
		return
	}
	switch re.Op {
	case syntax.OpLiteral:
		g.b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		g.class(re.Rune, in)
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL: // mostly a dot meant as one (hooks.slack.com)
		g.b.WriteByte('.')
	case syntax.OpCapture:
		if re.Cap == g.group {
			g.start = g.b.Len()
			g.walk(re.Sub[0], true)
			g.end = g.b.Len()
			return
		}
		g.walk(re.Sub[0], in)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			g.walk(s, in)
		}
	case syntax.OpAlternate:
		g.walk(re.Sub[g.pick(len(re.Sub))], in)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := repeatBounds(re)
		n := lo
		if in { // a secret as long as the rule lets it be, within reason
			if hi < 0 || hi > lo+24 {
				hi = lo + 24
			}
			n = lo + g.pick(hi-lo+1)
			if n == 0 && hi > 0 {
				n = hi
			}
		}
		for i := 0; i < n; i++ {
			g.walk(re.Sub[0], in)
		}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
	default:
		g.failed = true
	}
}

func repeatBounds(re *syntax.Regexp) (int, int) {
	switch re.Op {
	case syntax.OpStar:
		return 0, -1
	case syntax.OpPlus:
		return 1, -1
	case syntax.OpQuest:
		return 0, 1
	}
	return re.Min, re.Max
}

// class writes one character of a class: outside the secret a blank when
// the class has one (an assignment's spacing); else a safe one, else any
// printable one (inside the secret, not a quote or backslash).
func (g *generator) class(ranges []rune, in bool) {
	var pool []rune
	has := func(c rune) bool {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= c && c <= ranges[i+1] {
				return true
			}
		}
		return false
	}
	if !in && has(' ') {
		g.b.WriteByte(' ')
		return
	}
	for c := rune(0x21); c < 0x7f; c++ {
		if has(c) && safe(c) {
			pool = append(pool, c)
		}
	}
	if len(pool) == 0 {
		for c := rune(0x21); c < 0x7f; c++ {
			if has(c) && (!in || !strings.ContainsRune("\"'`\\", c)) {
				pool = append(pool, c)
			}
		}
	}
	if len(pool) == 0 {
		g.failed = true
		return
	}
	g.b.WriteRune(pool[g.pick(len(pool))])
}

func utf8Printable(s string) bool {
	for _, r := range s {
		if r != '\n' && (r < 0x20 || r == 0x7f || r == unicode.ReplacementChar) {
			return false
		}
	}
	return true
}
