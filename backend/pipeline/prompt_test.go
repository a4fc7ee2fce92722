package pipeline

import (
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

func TestSystemPromptEndsWithGuard(t *testing.T) {
	for _, role := range []task.Role{task.RolePlanner, task.RoleRefinement, task.RoleDeveloper,
		task.RoleObserver, task.RoleReviewer, task.RolePlannerAnswer} {
		t.Run(string(role), func(t *testing.T) {
			sp := SystemPrompt(role)
			if !strings.HasSuffix(sp, NonInteractiveGuard) {
				t.Fatal("system prompt does not end with the non-interactive guard")
			}
			reviewing := role == task.RoleObserver || role == task.RoleReviewer
			if strings.Contains(sp, "temporary directory outside the working directory") != reviewing ||
				strings.Contains(sp, "VERDICT: CHANGES_REQUESTED") != reviewing {
				t.Fatalf("scratch rule / verdict protocol presence wrong for %s", role)
			}
		})
	}
}

func TestBuildPromptSections(t *testing.T) {
	full := BuildPrompt(PromptInput{
		Role: task.RoleDeveloper, Task: "Do X.", Command: "Run the linter.", Answers: []string{"A1"},
		Attachments: []Attachment{{Name: "a.png", Path: "/d/att/t/a.png", Size: 2048}, {Name: "b.txt", Path: "/d/att/t/b.txt", Size: 12}},
		FinalPlan:   "final", Findings: "bad thing\nVERDICT: CHANGES_REQUESTED", FindingsRole: task.RoleObserver,
		PrevIteration: "prev", Iteration: 2, Runs: 3, Injected: []string{"inj1", "inj2"}, Interrupted: true, Diff: "diff --git a b",
	})
	order := []string{HeadingIteration, HeadingTask, HeadingCommand, HeadingAttachments, HeadingAnswers, HeadingFinalPlan, HeadingPrevIteration,
		HeadingFindings, HeadingDiff, HeadingInjected, HeadingInterrupted}
	last := -1
	for _, h := range order {
		i := strings.Index(full, h+"\n")
		if i < 0 || i < last {
			t.Fatalf("heading %q missing or out of order in:\n%s", h, full)
		}
		last = i
	}
	mustContain(t, full, "- a.png: /d/att/t/a.png (2.0 KiB)\n- b.txt: /d/att/t/b.txt (12 bytes)\n", "Fix each real finding", "rebut it with evidence", "- inj1\n- inj2", "git status", "run 2 of 3")
	bare := BuildPrompt(PromptInput{Role: task.RolePlanner, Task: "Do X.", FinalPlan: "not for planner"})
	for _, h := range []string{HeadingIteration, HeadingCommand, HeadingAttachments, HeadingAnswers, HeadingFinalPlan, HeadingInjected, HeadingInterrupted, HeadingDiff} {
		if strings.Contains(bare, h) {
			t.Errorf("empty section %q rendered", h)
		}
	}
	ref := BuildPrompt(PromptInput{Role: task.RoleRefinement, Task: "t", Plan: "first plan"})
	mustContain(t, ref, HeadingPlan+"\n\nfirst plan")
	ans := BuildPrompt(PromptInput{Role: task.RolePlannerAnswer, Task: "t", Questions: []string{"q1?"}, Asker: task.RoleReviewer})
	mustContain(t, ans, "The reviewer asks:", "- q1?")
}

func TestAnswersAndPrevFindings(t *testing.T) {
	secs := []task.Section{
		{Kind: task.SectionQuestions, Body: "1. Name?\n"},
		{Kind: task.SectionAnswers, Body: "foo"},
		{Kind: task.SectionAnswers, Body: "also bar"},
		{Kind: task.SectionObserverReport, Role: task.RoleObserver, Iteration: 1, Round: 1, Body: "o1\nVERDICT: CHANGES_REQUESTED"},
		{Kind: task.SectionObserverReport, Role: task.RoleObserver, Iteration: 1, Round: 2, Body: "o2\nVERDICT: APPROVE"},
		{Kind: task.SectionReviewerReport, Role: task.RoleReviewer, Iteration: 1, Round: 1, Body: "r1\nVERDICT: APPROVE"},
		{Kind: task.SectionReviewerReport, Role: task.RoleReviewer, Iteration: 2, Round: 1, Body: "later"},
	}
	a := answers(secs)
	if len(a) != 2 || !strings.Contains(a[0], "Name?") || !strings.Contains(a[0], "foo") || a[1] != "also bar" {
		t.Fatalf("answers %q", a)
	}
	pf := prevFindings(secs, 1)
	mustContain(t, pf, "o2\nVERDICT: APPROVE", "r1\nVERDICT: APPROVE", "round 2")
	if strings.Contains(pf, "o1") || strings.Contains(pf, "later") {
		t.Fatalf("prev findings include the wrong reports:\n%s", pf)
	}
	if prevFindings(secs, 0) != "" {
		t.Fatal("findings for iteration 0")
	}
}
