package secrets

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestRuleSetCompiled: the embedded gitleaks rule set compiles whole (only
// its path-only rules are left out) and most rules run anchored at their
// keyword, which is what keeps the scan one pass.
func TestRuleSetCompiled(t *testing.T) {
	m, err := Compile()
	if err != nil {
		t.Fatal(err)
	}
	n := map[mode]int{}
	for _, r := range m.rules {
		n[r.mode]++
	}
	if len(m.rules) < 200 {
		t.Fatalf("%d rules compiled, want the gitleaks set (>200) plus ours", len(m.rules))
	}
	if n[modeTemplate] < 80 || n[modeAnchored] < 100 || n[modeWindow] > 25 {
		t.Errorf("rules by mode %v: too few run anchored", n)
	}
}

func TestAssignmentShapeAcceptsWhatTheTemplateMatches(t *testing.T) {
	for _, s := range []string{`api_key = "abcdef123456"`, `token: 'abcdef123456'`, "secret=>abcdef123456", `auth ||abcdef123456`, `asana,abcdef123456`} {
		if _, ok := assignmentShape([]byte(s), 0, 10, &anyValueByte); !ok {
			t.Errorf("rejected %q", s)
		}
	}
	for _, s := range []string{`tokens":12,`, `token is valid`, `key: ab`} {
		if _, ok := assignmentShape([]byte(s), 0, 10, &anyValueByte); ok {
			t.Errorf("accepted %q", s)
		}
	}
}

// TestAssignmentShapeKnowsTheSecretsBytes: the quick test reads the value
// with the bytes the rule's secret is made of, so a JSON key after a comma
// does not run a rule whose secret is hex; a value starting with one of
// the bytes the operator's quoting skips is still seen whole.
func TestAssignmentShapeKnowsTheSecretsBytes(t *testing.T) {
	parse := func(expr string) *syntax.Regexp {
		re, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		return re
	}
	hex := secretBytes(parse(`(?i)[\w.-]{0,50}?(?:asana)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([a-f0-9]{32})`), 1)
	const value = `ASANA,"0123456789abcdef0123456789ABCDEF", more`
	if end, ok := assignmentShape([]byte(value), 0, 32, &hex); !ok || end != strings.Index(value, `", more`) {
		t.Errorf("a hex value: %v, ends at %d", ok, end)
	}
	if _, ok := assignmentShape([]byte(`"ASANA","claude_code_version_and_more_text"`), 1, 32, &hex); ok {
		t.Error("accepted a JSON key as a hex secret")
	}
	eq := secretBytes(parse(`(?i)(?:sonar)[ \t]*=[\x60'"\s=]{0,5}([a-z0-9=_\-]{8})`), 1)
	if _, ok := assignmentShape([]byte(`sonar==abcdef1`), 0, 8, &eq); !ok {
		t.Error("rejected a value starting with =")
	}
}

// TestTemplateRulesEndAtTheirTerminator: the template rules whose value
// is followed by the terminator alone are run on the text up to the end
// of their value (the regexp's backtracker clears state in proportion to
// its input); atlassian's, with a second form after it, is not.
func TestTemplateRulesEndAtTheirTerminator(t *testing.T) {
	m, err := Compile()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range m.rules {
		if r.terminated {
			n++
		}
		if r.id == "atlassian-api-token" && r.terminated {
			t.Error("atlassian-api-token taken to end at its value")
		}
	}
	if n < 80 {
		t.Errorf("%d template rules end at their value", n)
	}
}

// TestAnchoredSourceIsTheRule: the anchored form of a rule is its own text
// (less a leading \b) when that parses to the same expression, and the
// printed expression when it does not; both match what the rule matches.
func TestAnchoredSourceIsTheRule(t *testing.T) {
	for _, c := range []struct{ expr, want, prefix string }{
		{`\bghp_[0-9a-zA-Z]{36}`, `ghp_[0-9a-zA-Z]{36}`, "ghp_"},
		{`(?i)\bsk-(live|test)_[a-z0-9]{8}\b`, `(?i)sk-(live|test)_[a-z0-9]{8}\b`, ""},
		{`xoxb-[0-9]{10}`, `xoxb-[0-9]{10}`, "xoxb-"},
		// \b inside a group: the text cannot be cut, so it is printed.
		{`(?:\bAKIA[A-Z0-9]{16})`, "", "AKIA"},
	} {
		a, prefix, boundary, ok := anchorable(c.expr, []string{"ghp_", "sk-", "xoxb-", "akia"})
		if !ok {
			t.Fatalf("%s: not anchorable", c.expr)
		}
		src := strings.TrimSuffix(strings.TrimPrefix(a.String(), "^(?:"), ")")
		if c.want != "" && src != c.want {
			t.Errorf("%s: anchored %q, want %q", c.expr, src, c.want)
		}
		if prefix != c.prefix {
			t.Errorf("%s: prefix %q, want %q", c.expr, prefix, c.prefix)
		}
		if boundary != strings.Contains(c.expr, `\b`) {
			t.Errorf("%s: boundary %v", c.expr, boundary)
		}
		whole := regexp.MustCompile(c.expr)
		for _, s := range []string{"ghp_" + strings.Repeat("a1", 18), "sk-live_abcd1234", "SK-TEST_ABCD1234", "xoxb-0123456789", "AKIA" + strings.Repeat("B", 16), "ghp_short", "sk-other_abcd1234"} {
			if got, want := a.MatchString(s), whole.FindStringIndex(s) != nil && whole.FindStringIndex(s)[0] == 0; got != want {
				t.Errorf("%s on %q: anchored %v, rule %v", c.expr, s, got, want)
			}
		}
	}
}

// TestAnchoredPrefixIsTheLiteralPrefix: the literal each anchored rule's
// match starts with, read from its syntax tree, is the one regexp finds
// when it compiles the rule (what the scan compiled for it before).
func TestAnchoredPrefixIsTheLiteralPrefix(t *testing.T) {
	m, err := Compile()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range m.rules {
		if r.mode != modeAnchored {
			continue
		}
		want, _ := regexp.MustCompile(strings.TrimPrefix(r.anchored.String(), "^")).LiteralPrefix()
		if r.prefix != want {
			t.Errorf("%s: prefix %q, regexp's %q", r.id, r.prefix, want)
		}
		if r.prefix != "" {
			n++
		}
	}
	if n < 50 {
		t.Errorf("only %d anchored rules have a literal prefix", n)
	}
}

// TestStopwordsFoundInOnePass: the automaton that holds an allowlist's
// stopwords finds each of them, in any case, anywhere in a secret, and
// answers as a Contains per stopword does on other text.
func TestStopwordsFoundInOnePass(t *testing.T) {
	var cfg tomlConfig
	if _, err := toml.Decode(gitleaksTOML, &cfg); err != nil {
		t.Fatal(err)
	}
	m := Default()
	byID := map[string]*rule{}
	for _, r := range m.rules {
		byID[r.id] = r
	}
	n, allowed := 0, 0
	for _, tr := range cfg.Rules {
		for i, ta := range tr.Allowlists {
			if len(ta.Stopwords) == 0 {
				continue
			}
			r := byID[tr.ID]
			if r == nil || i >= len(r.allow) || r.allow[i].stop == nil {
				t.Fatalf("%s: stopwords not compiled", tr.ID)
			}
			a := r.allow[i]
			for _, w := range ta.Stopwords {
				n++
				if !a.stop.any([]byte("Q9" + strings.ToUpper(w) + "z7")) {
					t.Errorf("%s: stopword %q not found", tr.ID, w)
				}
			}
			// Text of every kind, each checked against the plain search.
			x := uint32(2166136261)
			for k := 0; k < 500; k++ {
				b := make([]byte, 4+k%24)
				for j := range b {
					x ^= x << 13
					x ^= x >> 17
					x ^= x << 5
					b[j] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-."[x%65]
				}
				want, low := false, strings.ToLower(string(b))
				for _, w := range ta.Stopwords {
					want = want || strings.Contains(low, strings.ToLower(w))
				}
				if got := a.stop.any(b); got != want {
					t.Fatalf("%s: %q: found %v, a search per stopword %v", tr.ID, b, got, want)
				}
				if want {
					allowed++
				}
			}
		}
	}
	if n < 1000 || allowed == 0 || allowed == 500 {
		t.Errorf("%d stopwords checked, %d of 500 texts held one", n, allowed)
	}
}
