package secrets

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// mode is how a rule is run from a keyword hit.
type mode int

const (
	// modeTemplate: the gitleaks assignment template, anchored at the keyword.
	modeTemplate mode = iota
	// modeAnchored: every match starts with a keyword; anchored at the hit.
	modeAnchored
	// modeWindow: searched in a window of the hit's line.
	modeWindow
	// modeFunc: a hand-written detector.
	modeFunc
)

// Window bounds around a keyword hit: a match is looked for at most
// windowBack bytes before and windowAhead bytes after it, within its line.
const (
	windowBack  = 256
	windowAhead = 1024
	// anchoredMax bounds the text an anchored rule sees from its hit.
	anchoredMax = 2048
)

// rule is one compiled detector.
type rule struct {
	id       string
	re       *regexp.Regexp // the rule as written (window mode)
	anchored *regexp.Regexp // anchored at the keyword hit
	boundary bool           // a word boundary is required before the hit
	group    int            // the secret's capture group; 0 = first non-empty, -1 = the whole match
	entropy  float64        // minimum Shannon entropy of the secret
	keywords []string
	allow    []allowlist
	mode     mode
	// prefix is a literal every anchored match starts with ("" = none known).
	prefix string
	// minValue is the shortest secret of a template rule, value the bytes
	// it is made of.
	minValue int
	value    byteSet
	// terminated says a template rule's value is followed by its
	// terminator alone (a quote, a blank, an escaped line break or the end).
	terminated bool
	// fn finds a secret from a hit: the context start, the secret's span.
	fn func(p []byte, hit int) (ctx, start, end int, ok bool)
}

// allowlist says when a found secret is not one.
type allowlist struct {
	target  string // "secret" (default), "match" or "line"
	regexes []*regexp.Regexp
	stop    *automaton // its stopwords, found in one pass (nil: none)
}

// span is one secret found: [start, end) is replaced; ctx is where the
// text that made it a secret (its keyword or prefix) starts.
type span struct {
	start, end, ctx int
}

// Matcher finds secrets with a compiled rule set in one pass over the
// text: a keyword automaton, then only the rules whose keywords occur, run
// from where they occur. It is safe for concurrent use.
type Matcher struct {
	rules   []*rule
	global  allowlist
	ac      *automaton
	byKW    [][]int32 // keyword → rules
	scratch sync.Pool // *scan
}

// Compile builds the matcher of the built-in rule set: gitleaks' rules and
// this package's own (ours.go).
func Compile() (*Matcher, error) {
	gl, global, err := gitleaksRules()
	if err != nil {
		return nil, err
	}
	own, err := ownRules()
	if err != nil {
		return nil, err
	}
	return newMatcher(append(own, gl...), global), nil
}

func newMatcher(rules []*rule, global allowlist) *Matcher {
	m := &Matcher{rules: rules, global: global}
	index := map[string]int{}
	var kws []string
	for ri, r := range rules {
		for _, k := range r.keywords {
			ki, ok := index[k]
			if !ok {
				ki = len(kws)
				index[k] = ki
				kws = append(kws, k)
				m.byKW = append(m.byKW, nil)
			}
			if !slices.Contains(m.byKW[ki], int32(ri)) {
				m.byKW[ki] = append(m.byKW[ki], int32(ri))
			}
		}
	}
	m.ac = newAutomaton(kws)
	m.scratch.New = func() any { return &scan{last: make([]int, len(rules))} }
	return m
}

// Rules names the rules of the matcher and how each is run, for tests and
// diagnostics.
func (m *Matcher) Rules() []string {
	out := make([]string, 0, len(m.rules))
	for _, r := range m.rules {
		out = append(out, fmt.Sprintf("%s:%d", r.id, r.mode))
	}
	return out
}

// scan is the per-call state of find.
type scan struct {
	last  []int // per rule: last hit tried + 1 (anchored) or window end (window)
	spans []span
	// The text with its escapes decoded (unescape.go): two buffers used in
	// turn, the escapes of each depth, the levels of this call.
	bufs   [2][]byte
	escs   []level
	levels []level
}

// find returns the secrets of p, sorted and disjoint, appended to out. The
// rules run over p with its escapes decoded (unescape.go); what they find
// is mapped back to p.
func (m *Matcher) find(p []byte, out []span, _ bool) []span {
	sc := m.scratch.Get().(*scan)
	clear(sc.last)
	sc.spans = sc.spans[:0]
	view, levels := sc.decoded(p)
	m.ac.scan(view, func(kw int32, hit int) {
		for _, ri := range m.byKW[kw] {
			m.try(sc, m.rules[ri], int(ri), view, hit)
		}
	})
	for _, s := range sc.spans {
		if s, ok := toRaw(s, levels); ok {
			out = append(out, s)
		}
	}
	out = mergeSpans(out)
	m.scratch.Put(sc)
	return out
}

// try runs rule r from a keyword hit.
func (m *Matcher) try(sc *scan, r *rule, ri int, p []byte, hit int) {
	switch r.mode {
	case modeFunc:
		if sc.last[ri] > hit {
			return
		}
		ctx, s, e, ok := r.fn(p, hit)
		if ok {
			sc.spans = append(sc.spans, span{start: s, end: e, ctx: ctx})
			sc.last[ri] = e
		}
	case modeTemplate, modeAnchored:
		if sc.last[ri] == hit+1 {
			return
		}
		sc.last[ri] = hit + 1
		if r.boundary && !boundaryAt(p, hit) {
			return
		}
		if r.prefix != "" && !bytes.HasPrefix(p[hit:], []byte(r.prefix)) {
			return
		}
		end := min(len(p), hit+anchoredMax)
		if r.mode == modeTemplate {
			valueEnd, ok := assignmentShape(p[:end], hit, r.minValue, &r.value)
			if !ok {
				return
			}
			if r.terminated { // the match ends within its terminator after the value
				end = min(end, valueEnd+2)
			}
		}
		if j := bytes.IndexByte(p[hit:end], '\n'); j >= 0 {
			end = hit + j
		}
		loc := r.anchored.FindSubmatchIndex(p[hit:end])
		if loc == nil {
			return
		}
		ctx := hit
		if r.mode == modeTemplate {
			for ctx > 0 && hit-ctx < 50 && isIdent(p[ctx-1]) {
				ctx--
			}
		}
		m.accept(sc, r, p, ctx, hit, loc)
	case modeWindow:
		if hit < sc.last[ri] {
			return
		}
		ls, le := lineBounds(p, hit, windowAhead)
		lo, hi := max(ls, hit-windowBack), min(le, hit+windowAhead)
		sc.last[ri] = hi
		for _, loc := range r.re.FindAllSubmatchIndex(p[lo:hi], -1) {
			m.accept(sc, r, p, lo+loc[0], lo, loc)
		}
	}
}

// accept checks a regex match (loc relative to base) against the rule's
// entropy and allowlists and records its secret.
func (m *Matcher) accept(sc *scan, r *rule, p []byte, ctx, base int, loc []int) {
	s, e := loc[0], loc[1]
	switch {
	case r.group > 0 && 2*r.group+1 < len(loc) && loc[2*r.group] >= 0:
		s, e = loc[2*r.group], loc[2*r.group+1]
	case r.group == 0:
		for g := 1; 2*g+1 < len(loc); g++ {
			if loc[2*g] >= 0 && loc[2*g+1] > loc[2*g] {
				s, e = loc[2*g], loc[2*g+1]
				break
			}
		}
	}
	s, e = base+s, base+e
	if e <= s {
		return
	}
	secret := p[s:e]
	if r.entropy > 0 && entropy(secret) <= r.entropy {
		return
	}
	match := p[base+loc[0] : base+loc[1]]
	for _, a := range r.allow {
		if a.allows(secret, match, func() []byte { ls, le := lineBounds(p, s, 4096); return p[ls:le] }) {
			return
		}
	}
	if m.global.allows(secret, match, nil) {
		return
	}
	sc.spans = append(sc.spans, span{start: s, end: e, ctx: ctx})
}

// allows reports whether the allowlist lets secret pass.
func (a allowlist) allows(secret, match []byte, line func() []byte) bool {
	if a.stop != nil && a.stop.any(secret) {
		return true
	}
	for _, re := range a.regexes {
		target := secret
		switch a.target {
		case "match":
			target = match
		case "line":
			if line == nil {
				continue
			}
			target = line()
		}
		if re.Match(target) {
			return true
		}
	}
	return false
}

// mergeSpans sorts spans and merges those that overlap; ctx keeps the
// earliest.
func mergeSpans(s []span) []span {
	if len(s) < 2 {
		return s
	}
	slices.SortFunc(s, func(a, b span) int { return a.start - b.start })
	out := s[:1]
	for _, x := range s[1:] {
		last := &out[len(out)-1]
		if x.start <= last.end {
			last.end = max(last.end, x.end)
			last.ctx = min(last.ctx, x.ctx)
			continue
		}
		out = append(out, x)
	}
	return out
}

// entropy is the Shannon entropy of b in bits per byte.
func entropy(b []byte) float64 {
	var counts [256]int
	for _, c := range b {
		counts[c]++
	}
	n := float64(len(b))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			f := float64(c) / n
			h -= f * math.Log2(f)
		}
	}
	return h
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdent(c byte) bool { return isWord(c) || c == '.' || c == '-' }

// assignmentShape is a quick test that a template rule can match at a
// keyword hit: a name, an assignment operator, then a value of at least
// minValue bytes of the secret's bytes. It accepts everything the rule's
// regex can match, and returns where the run of the secret's bytes that
// any match's secret lies in ends.
func assignmentShape(p []byte, hit, minValue int, value *byteSet) (valueEnd int, ok bool) {
	i, end := hit, min(len(p), hit+64)
	for i < end && (isIdent(p[i]) || p[i] == ' ' || p[i] == '\t') {
		i++
	}
	for n := 0; n < 3 && i < len(p) && (p[i] == '"' || p[i] == '\'' || p[i] <= ' '); n++ {
		i++
	}
	if i >= len(p) {
		return 0, false
	}
	switch p[i] {
	case '=', '>', ':', '|', '?', ',':
	default:
		return 0, false
	}
	op := i + 1 // the operator is one byte at least
	for n := 0; n < 4 && i < len(p) && strings.IndexByte("=>:|?,", p[i]) >= 0; n++ {
		i++
	}
	for n := 0; n < 5 && i < len(p) && (p[i] == '`' || p[i] == '"' || p[i] == '\'' || p[i] == '=' || p[i] <= ' '); n++ {
		i++
	}
	v := i
	for v > op && value.has(p[v-1]) { // what was skipped may start the secret
		v--
	}
	for i = v; i < len(p) && value.has(p[i]); i++ {
	}
	return i, i-v >= minValue
}

// boundaryAt reports whether a word can start at i: after a non-word byte,
// or after an escaped line break or tab (\n, \r, \t in JSON text, which
// a plain \b would take for the letter n).
func boundaryAt(p []byte, i int) bool {
	if i == 0 || !isWord(p[i-1]) || !isWord(p[i]) {
		return true
	}
	return i >= 2 && p[i-2] == '\\' && (p[i-1] == 'n' || p[i-1] == 'r' || p[i-1] == 't')
}
