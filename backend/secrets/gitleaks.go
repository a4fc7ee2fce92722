package secrets

import (
	_ "embed"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"
)

// gitleaksTOML is gitleaks' own rule set (v8.28.0, config/gitleaks.toml,
// MIT licensed: GITLEAKS_LICENSE), taken as it is so it can be updated by
// replacing the file. Taking the rules rather than gitleaks' detect package
// keeps the binary small and the scan one pass (see Compile).
//
//go:embed gitleaks.toml
var gitleaksTOML string

// tomlConfig is the part of a gitleaks config this package reads.
type tomlConfig struct {
	Allowlist tomlAllowlist `toml:"allowlist"`
	Rules     []tomlRule    `toml:"rules"`
}

type tomlRule struct {
	ID          string          `toml:"id"`
	Regex       string          `toml:"regex"`
	SecretGroup int             `toml:"secretGroup"`
	Entropy     float64         `toml:"entropy"`
	Keywords    []string        `toml:"keywords"`
	Path        string          `toml:"path"`
	Allowlists  []tomlAllowlist `toml:"allowlists"`
}

type tomlAllowlist struct {
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	Stopwords   []string `toml:"stopwords"`
	Paths       []string `toml:"paths"`
	Commits     []string `toml:"commits"`
}

// The shape most gitleaks rules share: an identifier holding a keyword,
// an assignment operator, then the secret. Such a rule is run from each
// keyword hit with the part after the identifier prefix, anchored there.
const (
	templatePrefix = `(?i)[\w.-]{0,50}?(?:`
	templateMid    = `)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}(`
)

// gitleaksRules compiles the embedded rule set. Rules that apply only to
// file paths (the config's path key) are skipped: agent output has no path.
func gitleaksRules() ([]*rule, allowlist, error) {
	var cfg tomlConfig
	if _, err := toml.Decode(gitleaksTOML, &cfg); err != nil {
		return nil, allowlist{}, fmt.Errorf("gitleaks rules: %w", err)
	}
	global, err := compileAllowlists([]tomlAllowlist{cfg.Allowlist})
	if err != nil {
		return nil, allowlist{}, err
	}
	var out []*rule
	for _, tr := range cfg.Rules {
		if tr.Path != "" || tr.Regex == "" || len(tr.Keywords) == 0 {
			continue
		}
		r, err := compileRule(tr)
		if err != nil {
			return nil, allowlist{}, fmt.Errorf("gitleaks rule %s: %w", tr.ID, err)
		}
		out = append(out, r)
	}
	return out, global[0], nil
}

// compileRule compiles one gitleaks rule into the fastest form that finds
// the same secrets: anchored at the keyword hit when the rule follows the
// assignment template or every match starts with one of its keywords,
// otherwise searched in a window around the hit.
func compileRule(tr tomlRule) (*rule, error) {
	re, err := regexp.Compile(tr.Regex)
	if err != nil {
		return nil, err
	}
	tree, err := syntax.Parse(tr.Regex, syntax.Perl) // parsed again, once, for what it tells
	if err != nil {
		return nil, err
	}
	r := &rule{id: tr.ID, re: re, group: tr.SecretGroup, entropy: tr.Entropy}
	if r.group == 0 {
		r.group = defaultGroup(tr.Regex, tree)
	}
	for _, k := range tr.Keywords {
		r.keywords = append(r.keywords, strings.ToLower(k))
	}
	if r.allow, err = compileAllowlists(tr.Allowlists); err != nil {
		return nil, err
	}
	switch {
	case templateKeyworded(tr.Regex, r.keywords):
		// The keyword group and what follows, anchored at the keyword.
		r.anchored = regexp.MustCompile(`(?i)^(?:(?:` + tr.Regex[len(templatePrefix):] + `)`)
		r.mode = modeTemplate
		r.minValue = minSecretLen(tree, r.group)
		r.value = secretBytes(tree, r.group)
		r.terminated = valueThenTerminator(tr.Regex)
	default:
		if a, prefix, boundary, ok := anchorable(tr.Regex, r.keywords); ok {
			r.anchored, r.prefix, r.boundary, r.mode = a, prefix, boundary, modeAnchored
		} else {
			r.mode = modeWindow
		}
	}
	return r, nil
}

// templateEnd is what ends gitleaks' assignment template after the value.
const templateEnd = `(?:[\x60'"\s;]|\\[nr]|$)`

// valueThenTerminator reports whether a template rule's expression ends
// with its value's group and the template's terminator, nothing else (not
// atlassian's, which has a second form after it).
func valueThenTerminator(expr string) bool {
	mid := strings.Index(expr, templateMid)
	if mid < 0 {
		return false
	}
	rest := expr[mid+len(templateMid):]
	depth := 1 // the value's group is open
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '\\':
			i++
		case '[': // a class: its brackets and parentheses are literal
			for i++; i < len(rest) && rest[i] != ']'; i++ {
				if rest[i] == '\\' {
					i++
				}
			}
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return rest[i+1:] == templateEnd
			}
		}
	}
	return false
}

// defaultGroup returns the secret group of a rule that names none: the
// value's group of an assignment template (sonar's names a group in its
// name too: (login|token)), the whole match (-1) when the first group is
// repeated (a Teams webhook's ([a-z0-9]{4}-){3} is a piece of it), else 0:
// the first non-empty group, as gitleaks takes it.
func defaultGroup(expr string, tree *syntax.Regexp) int {
	if mid := strings.Index(expr, templateMid); strings.HasPrefix(expr, templatePrefix) && mid >= 0 {
		if name, err := syntax.Parse(`(?:`+expr[len(templatePrefix):mid]+`)`, syntax.Perl); err == nil && name.MaxCap() > 0 {
			return name.MaxCap() + 1
		}
		return 0
	}
	if repeatedCapture(tree, 1, false) {
		return -1
	}
	return 0
}

// repeatedCapture reports whether capture group n of re is inside a
// repetition (under says re itself is).
func repeatedCapture(re *syntax.Regexp, n int, under bool) bool {
	if re.Op == syntax.OpCapture && re.Cap == n {
		return under
	}
	under = under || re.Op == syntax.OpStar || re.Op == syntax.OpPlus || re.Op == syntax.OpRepeat && re.Max != 1
	for _, sub := range re.Sub {
		if repeatedCapture(sub, n, under) {
			return true
		}
	}
	return false
}

// templateKeyworded reports whether expr follows the assignment template
// with a name every match of which starts with one of keywords (as far as
// its literal prefix tells), so a keyword hit is where the name starts. A rule whose keywords are in its
// secret (lob's live_ and test_) is not: run from the hit, the name is
// behind it.
func templateKeyworded(expr string, keywords []string) bool {
	mid := strings.Index(expr, templateMid)
	if !strings.HasPrefix(expr, templatePrefix) || mid < 0 {
		return false
	}
	re, err := syntax.Parse(`(?i)(?:`+expr[len(templatePrefix):mid]+`)`, syntax.Perl)
	if err != nil {
		return false
	}
	lits, ok := prefixes(re.Simplify(), 0)
	if !ok || len(lits) == 0 {
		return false
	}
	for _, l := range lits {
		l = strings.ToLower(l)
		if !startsWithAny(l, keywords) && !slices.ContainsFunc(keywords, func(k string) bool { return strings.HasPrefix(k, l) }) {
			return false
		}
	}
	return true
}

// anchorable reports whether every match of expr starts with one of
// keywords, and if so returns expr anchored at its start (a leading \b
// removed and reported, since an anchored match cannot see the byte before)
// and the literal (case as written) every match starts with, if any.
func anchorable(expr string, keywords []string) (a *regexp.Regexp, prefix string, boundary, ok bool) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, "", false, false
	}
	re = re.Simplify()
	if re.Op == syntax.OpConcat && len(re.Sub) > 1 && re.Sub[0].Op == syntax.OpWordBoundary {
		boundary = true
		if len(re.Sub) == 2 {
			re = re.Sub[1]
		} else {
			re = &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: re.Sub[1:]}
		}
	}
	lits, ok := prefixes(re, 0)
	if !ok || len(lits) == 0 {
		return nil, "", false, false
	}
	for _, l := range lits {
		if !startsWithAny(strings.ToLower(l), keywords) {
			return nil, "", false, false
		}
	}
	if a, err = regexp.Compile(`^(?:` + sourceOf(expr, boundary, re) + `)`); err != nil {
		return nil, "", false, false
	}
	prefix, _ = leadingLiteral(re)
	return a, prefix, boundary, true
}

// leadingLiteral returns the case-sensitive literal text re starts with;
// whole says re is exactly that text.
func leadingLiteral(re *syntax.Regexp) (lit string, whole bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			return string(re.Rune), true
		}
		for i, r := range re.Rune { // case-folded: up to the first letter
			if unicode.SimpleFold(r) != r {
				return string(re.Rune[:i]), false
			}
		}
		return string(re.Rune), true
	case syntax.OpCapture:
		return leadingLiteral(re.Sub[0])
	case syntax.OpConcat:
		var b strings.Builder
		for _, sub := range re.Sub {
			l, w := leadingLiteral(sub)
			b.WriteString(l)
			if !w {
				return b.String(), false
			}
		}
		return b.String(), true
	}
	return "", false
}

// sourceOf returns the text of re, which is expr parsed and simplified,
// without its leading \b when boundary: expr itself when that parses to
// re, else re.String() (which costs about a millisecond a rule: it
// minimises flags by case-folding every character class).
func sourceOf(expr string, boundary bool, re *syntax.Regexp) string {
	text := expr
	if boundary {
		flags, rest := "", expr
		if strings.HasPrefix(rest, "(?") {
			if i := strings.IndexByte(rest, ')'); i > 0 && !strings.Contains(rest[:i], ":") {
				flags, rest = rest[:i+1], rest[i+1:]
			}
		}
		text = flags + strings.TrimPrefix(rest, `\b`)
	}
	if p, err := syntax.Parse(text, syntax.Perl); err == nil && p.Simplify().Equal(re) {
		return text
	}
	return re.String()
}

// prefixes returns literal strings one of which every match of re starts
// with; ok is false when re can start otherwise.
func prefixes(re *syntax.Regexp, depth int) ([]string, bool) {
	lits, _, ok := literals(re, depth)
	return lits, ok
}

// maxLiterals bounds the prefix sets literals builds.
const maxLiterals = 64

// literals returns strings one of which every match of re starts with;
// complete says every match is exactly one of them.
func literals(re *syntax.Regexp, depth int) (lits []string, complete, ok bool) {
	if depth > 10 {
		return nil, false, false
	}
	switch re.Op {
	case syntax.OpLiteral:
		return []string{string(re.Rune)}, true, len(re.Rune) > 0
	case syntax.OpCharClass:
		var rs []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for c := re.Rune[i]; c <= re.Rune[i+1]; c++ {
				if len(rs) >= 8 {
					return nil, false, false
				}
				rs = append(rs, string(c))
			}
		}
		return rs, true, len(rs) > 0
	case syntax.OpCapture:
		return literals(re.Sub[0], depth+1)
	case syntax.OpAlternate:
		complete = true
		for _, sub := range re.Sub {
			l, c, ok := literals(sub, depth+1)
			if !ok {
				return nil, false, false
			}
			lits, complete = append(lits, l...), complete && c
		}
		return lits, complete, len(lits) <= maxLiterals
	case syntax.OpConcat:
		acc := []string{""}
		for _, sub := range re.Sub {
			switch sub.Op {
			case syntax.OpWordBoundary, syntax.OpBeginText, syntax.OpBeginLine:
				continue
			}
			l, c, ok := literals(sub, depth+1)
			if !ok || len(acc)*len(l) > maxLiterals {
				return acc, false, acc[0] != ""
			}
			next := make([]string, 0, len(acc)*len(l))
			for _, a := range acc {
				for _, b := range l {
					next = append(next, a+b)
				}
			}
			acc = next
			if !c {
				return acc, false, true
			}
		}
		return acc, true, acc[0] != ""
	}
	return nil, false, false
}

func startsWithAny(s string, keywords []string) bool {
	for _, k := range keywords {
		if strings.HasPrefix(s, k) {
			return true
		}
	}
	return false
}

// compileAllowlists compiles the allowlists that can apply to text without
// a path or commit (an AND list naming paths or commits never can).
func compileAllowlists(tas []tomlAllowlist) ([]allowlist, error) {
	var out []allowlist
	for _, ta := range tas {
		if strings.EqualFold(ta.Condition, "AND") && (len(ta.Paths) > 0 || len(ta.Commits) > 0) {
			continue
		}
		a := allowlist{target: ta.RegexTarget}
		for _, s := range ta.Regexes {
			re, err := regexp.Compile(s)
			if err != nil {
				return nil, fmt.Errorf("allowlist %q: %w", s, err)
			}
			a.regexes = append(a.regexes, re)
		}
		var stop []string
		for _, w := range ta.Stopwords {
			if w != "" {
				stop = append(stop, strings.ToLower(w))
			}
		}
		if len(stop) > 0 {
			a.stop = newAutomaton(stop)
		}
		if len(a.regexes) > 0 || a.stop != nil {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		out = append(out, allowlist{})
	}
	return out, nil
}

// minSecretLen returns the shortest text capture group of tree (the
// first when 0) can match; 1 when it cannot be told.
func minSecretLen(tree *syntax.Regexp, group int) int {
	found := capture(tree, max(group, 1))
	if found == nil {
		return 1
	}
	return max(1, minLen(found))
}

// capture returns capture group n of re, nil when it has none.
func capture(re *syntax.Regexp, n int) *syntax.Regexp {
	if re.Op == syntax.OpCapture && re.Cap == n {
		return re
	}
	for _, sub := range re.Sub {
		if c := capture(sub, n); c != nil {
			return c
		}
	}
	return nil
}

// minLen is the shortest text re matches.
func minLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(string(re.Rune))
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minLen(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minLen(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n += minLen(s)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, s := range re.Sub {
			if m := minLen(s); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	}
	return 0
}
