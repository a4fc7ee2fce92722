package pipeline

import (
	"testing"

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
