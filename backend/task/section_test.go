package task

import (
	"errors"
	"math"
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

func TestPriceTable(t *testing.T) {
	p, ok := LookupPrice("claude-sonnet-4-5-20250929")
	if !ok || p.In != 3 || p.Out != 15 {
		t.Fatalf("sonnet 4.5 = %+v %v", p, ok)
	}
	// The longest prefix wins: gpt-5-mini is not priced as gpt-5.
	if p, _ := LookupPrice("gpt-5-mini-2025"); p.In != 0.25 {
		t.Fatalf("gpt-5-mini = %+v", p)
	}
	c, ok := EstimateCost("gpt-5", Usage{TokensIn: 2_000_000, TokensOut: 1_000_000, CacheRead: 1_000_000})
	if !ok || math.Abs(c-(2.5+10+0.125)) > 1e-9 {
		t.Fatalf("gpt-5 cost = %v %v", c, ok)
	}
	if c, ok := EstimateCost("mystery", Usage{TokensIn: 1}); ok || c != 0 {
		t.Fatalf("unknown model = %v %v", c, ok)
	}
	if u := (Usage{TokensIn: 1, CostUSD: 0.5}).Add(Usage{TokensIn: 2, CacheWrite: 3, CostUSD: 0.25}); u.TokensIn != 3 || u.CacheWrite != 3 || u.CostUSD != 0.75 {
		t.Fatalf("Add = %+v", u)
	}
}
