package secrets

import "testing"

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
