package secrets

// RegexRule is one regex rule of a matcher as written (gitleaks' or this
// package's own), for tests that make an example of every format the
// matcher knows (secretstest.Generate) and check the matcher finds it.
type RegexRule struct {
	// ID names the rule.
	ID string
	// Regex is the rule's expression as written.
	Regex string
	// SecretGroup is the capture group holding the secret; 0 means the
	// first non-empty one (or the whole match when there is none), -1 the
	// whole match.
	SecretGroup int
	// Keywords are the rule's keywords, lower case; gitleaks runs a rule
	// only on text holding one of them.
	Keywords []string
	// Reports returns the secrets the rule as written finds in text: its
	// expression over the whole text, then its entropy and allowlists and
	// the global allowlist, as gitleaks runs it. It is the oracle the
	// matcher's one pass (keyword hits, anchoring, windows, escapes
	// decoded) is checked against.
	Reports func(text string) []string
}

// RegexRules lists the matcher's regex rules (the hand-written detectors,
// private keys, URL credentials and assignments, have no expression).
func (m *Matcher) RegexRules() []RegexRule {
	var out []RegexRule
	for _, r := range m.rules {
		if r.mode == modeFunc {
			continue
		}
		out = append(out, RegexRule{ID: r.id, Regex: r.re.String(), SecretGroup: r.group, Keywords: r.keywords,
			Reports: func(text string) []string { return m.reports(r, []byte(text)) }})
	}
	return out
}

// reports runs rule r as written over p (see RegexRule.Reports).
func (m *Matcher) reports(r *rule, p []byte) []string {
	if !m.hasKeyword(r, p) {
		return nil
	}
	sc := &scan{last: make([]int, len(m.rules))}
	for _, loc := range r.re.FindAllSubmatchIndex(p, -1) {
		m.accept(sc, r, p, loc[0], 0, loc)
	}
	var out []string
	for _, s := range sc.spans {
		out = append(out, string(p[s.start:s.end]))
	}
	return out
}

// hasKeyword reports whether p holds one of r's keywords.
func (m *Matcher) hasKeyword(r *rule, p []byte) bool {
	found := false
	m.ac.scan(p, func(kw int32, _ int) {
		for _, ri := range m.byKW[kw] {
			if m.rules[ri] == r {
				found = true
			}
		}
	})
	return found
}
