package task

import (
	"errors"
	"strings"
	"testing"
)

func TestParseRoleAndKind(t *testing.T) {
	for _, r := range Roles {
		if got, err := ParseRole(string(r)); err != nil || got != r {
			t.Errorf("ParseRole(%q) = %q, %v", r, got, err)
		}
	}
	for _, k := range SectionKinds {
		if got, err := ParseSectionKind(string(k)); err != nil || got != k {
			t.Errorf("ParseSectionKind(%q) = %q, %v", k, got, err)
		}
	}
	if _, err := ParseRole("Planner"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseRole(Planner): %v", err)
	}
	if _, err := ParseSectionKind("log"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseSectionKind(log): %v", err)
	}
}

func TestNormalizeTools(t *testing.T) {
	got, err := NormalizeTools(Tools{RoleDeveloper: {Tool: "codex", Model: "gpt-5"}, RolePlanner: {}})
	if err != nil || len(got) != 1 || got[RoleDeveloper].Model != "gpt-5" {
		t.Fatalf("got %v, %v", got, err)
	}
	if got, err := NormalizeTools(nil); err != nil || got == nil {
		t.Fatalf("nil: %v %v", got, err)
	}
	for name, bad := range map[string]Tools{
		"unknown role":       {"boss": {Tool: "x"}},
		"model without tool": {RoleReviewer: {Model: "m"}},
		"space in tool":      {RoleReviewer: {Tool: "a b"}},
		"newline in model":   {RoleReviewer: {Tool: "a", Model: "m\n"}},
	} {
		if _, err := NormalizeTools(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: want ErrInvalid, got %v", name, err)
		}
	}
}

func TestSectionValidate(t *testing.T) {
	ok := Section{Kind: SectionReviewerReport, Role: RoleReviewer, Iteration: 1, Round: 2, Verdict: "APPROVE", Body: strings.Repeat("x", 1<<20)}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]Section{
		"kind":     {Kind: "diary"},
		"role":     {Kind: SectionFinalPlan, Role: "boss"},
		"round":    {Kind: SectionFinalPlan, Round: -1},
		"verdict":  {Kind: SectionReviewerReport, Verdict: "NOT OK"},
		"step nul": {Kind: SectionInjectedPrompt, Step: "dev\x00"},
	} {
		if err := bad.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: want ErrInvalid, got %v", name, err)
		}
	}
}

func TestValidCommandName(t *testing.T) {
	for _, ok := range []string{"review", "fix-tests_2", "a.b"} {
		if !ValidCommandName(ok) {
			t.Errorf("%q refused", ok)
		}
	}
	for _, bad := range []string{"", ".hidden", "-x", "a b", "../x", "é", strings.Repeat("a", 65)} {
		if ValidCommandName(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := (NewTask{Prompt: "p", Command: "a/b"}).Normalize(); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewTask with bad command: %v", err)
	}
}

func TestUsageAdd(t *testing.T) {
	if u := (Usage{TokensIn: 1, CostUSD: 0.5}).Add(Usage{TokensIn: 2, CacheWrite: 3, CostUSD: 0.25}); u.TokensIn != 3 || u.CacheWrite != 3 || u.CostUSD != 0.75 {
		t.Fatalf("Add = %+v", u)
	}
}
