package secrets

import (
	"regexp"
	"strings"
	"testing"
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
	for _, s := range []string{`api_key = "abcdef123456"`, `token: 'abcdef123456'`, "secret=>abcdef123456", `auth ||abcdef123456`} {
		if !assignmentShape([]byte(s), 0, 10) {
			t.Errorf("rejected %q", s)
		}
	}
	for _, s := range []string{`tokens":12,`, `token is valid`, `key: ab`} {
		if assignmentShape([]byte(s), 0, 10) {
			t.Errorf("accepted %q", s)
		}
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
