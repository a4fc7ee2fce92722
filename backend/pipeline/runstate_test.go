package pipeline

import (
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/task"
)

// TestRoundsShareTheFixBudget: the reviewer and the verify gate take from
// one developer budget, the observer from its own; a stored section moves
// the rounds past it.
func TestRoundsShareTheFixBudget(t *testing.T) {
	f := newRounds(2)
	if !f.takeFix() || !f.takeFix() || f.takeFix() {
		t.Fatal("the developer fix budget of 2 did not give exactly two rounds")
	}
	if !f.takeObserverFix() || !f.takeObserverFix() || f.takeObserverFix() {
		t.Fatal("the observer's budget of 2 did not give exactly two rounds")
	}
	if got := newRounds(0); got.takeFix() || got.takeObserverFix() {
		t.Fatal("a budget of 0 gave a fix round")
	}
	f.seen(task.Section{Kind: task.SectionDeveloperReport, Round: 2})
	f.seen(task.Section{Kind: task.SectionReviewerReport, Round: 3})
	f.seen(task.Section{Kind: task.SectionObserverReport, Round: 1})
	f.seen(task.Section{Kind: task.SectionDeveloperReport, Round: 0})
	if f.dev != 3 || f.nextReview(task.RoleReviewer) != 4 || f.nextReview(task.RoleObserver) != 2 {
		t.Fatalf("rounds after the stored sections: %+v", f)
	}
	if f.nextVerify() != 1 || f.nextVerify() != 2 {
		t.Fatal("verify rounds do not count from 1")
	}
}

// TestReplayTakesEachReportOnce: a report stored after the resume point in
// the same iteration is taken once, its section then counts as stored once.
func TestReplayTakesEachReportOnce(t *testing.T) {
	var p replay
	if _, ok := p.take(task.SectionPlannerReport, 0); ok {
		t.Fatal("an empty replay gave a report")
	}
	p.load([]task.Section{
		{ID: 1, Iteration: 1, Kind: task.SectionPlannerReport, Body: "before"},
		{ID: 2, Iteration: 1, Kind: task.SectionPlannerReport, Body: "plan"},
		{ID: 3, Iteration: 2, Kind: task.SectionDeveloperReport, Body: "other iteration"},
		{ID: 4, Iteration: 1, Kind: task.SectionInjectedPrompt, Body: "not a step"},
	}, 1, 1)
	sec, ok := p.take(task.SectionPlannerReport, 0)
	if !ok || sec.Body != "plan" {
		t.Fatalf("take = %q %v, want the report after the resume point", sec.Body, ok)
	}
	if _, ok := p.take(task.SectionPlannerReport, 0); ok {
		t.Fatal("a report was taken twice")
	}
	if _, ok := p.take(task.SectionDeveloperReport, 0); ok {
		t.Fatal("a report of another iteration was taken")
	}
	if !p.wasStored(task.SectionPlannerReport, 0) || !p.forget(task.SectionPlannerReport, 0) || p.forget(task.SectionPlannerReport, 0) {
		t.Fatal("the replayed section is not skipped exactly once")
	}
}

// TestRunningListsTheFilesOncePerWrite: a step that may write lists the
// files every time; a read-only step reuses the last list (listing only
// when there is none) or lists none when its guard found the worktree clean
// at the base.
func TestRunningListsTheFilesOncePerWrite(t *testing.T) {
	var s running
	calls := 0
	list := func(files ...string) func() []string {
		return func() []string { calls++; return files }
	}
	if got := s.listFiles(true, false, list("a.go")); len(got) != 1 || got[0] != "a.go" || calls != 1 {
		t.Fatalf("first read-only step: %v after %d listings, want [a.go] after 1", got, calls)
	}
	if got := s.listFiles(true, false, list("other.go")); len(got) != 1 || got[0] != "a.go" || calls != 1 {
		t.Fatalf("next read-only step: %v after %d listings, want the last list without a listing", got, calls)
	}
	if got := s.listFiles(false, false, list("b.go")); len(got) != 1 || got[0] != "b.go" || calls != 2 {
		t.Fatalf("a step that may write: %v after %d listings, want [b.go] after 2", got, calls)
	}
	if got := s.listFiles(true, true, list("c.go")); got == nil || len(got) != 0 || calls != 2 {
		t.Fatalf("a read-only step clean at the base: %v after %d listings, want an empty list, no listing", got, calls)
	}
	if s.ranAttempt() || s.output(agent.Result{Report: "x"}) != "" {
		t.Fatal("a step with no attempt started reports one, or output without a watch")
	}
	s.started("codex", "m", "")
	s.session("sess")
	if !s.ranAttempt() || s.last != (ran{tool: "codex", model: "m", session: "sess"}) {
		t.Fatalf("after an attempt started: %+v", s.last)
	}
	s.begin()
	if s.ranAttempt() {
		t.Fatal("a new step still reports the last step's attempt")
	}
}

// TestInjectionsKeepTheStoredOrder: the stored injected prompts come first,
// in order, then those added while the run goes on; other sections are not
// taken.
func TestInjectionsKeepTheStoredOrder(t *testing.T) {
	var in injections
	in.load([]task.Section{
		{Kind: task.SectionInjectedPrompt, Body: "one"},
		{Kind: task.SectionPlannerReport, Body: "plan"},
		{Kind: task.SectionInjectedPrompt, Body: "two"},
	})
	in.add("three")
	if got := in.all(); len(got) != 3 || got[0] != "one" || got[1] != "two" || got[2] != "three" {
		t.Fatalf("injections %q, want [one two three]", got)
	}
}
