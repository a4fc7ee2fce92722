package store

import (
	"context"
	"errors"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

// undoPullRequests drops what the pull requests migration adds, so that a
// test can stand the database where an older version left it.
const undoPullRequests = `DROP TABLE pull_requests; DROP TABLE task_issues; `

// A pull request record is saved, read back and replaced; a merge moves a
// done task to accepted in the same transaction (a task in another status
// keeps it); the record goes with its task.
func TestPullRequestRecord(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{Prompt: "p"})
	if _, err := s.PullRequest(ctx, tk.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no record: %v", err)
	}
	if err := s.SavePullRequest(ctx, PullRequest{TaskID: "01NOPE", Remote: "origin", Head: "b"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a record of no task: %v", err)
	}
	rec := PullRequest{TaskID: tk.ID, Forge: "github", Host: "github.com", Project: "o/r", Remote: "origin", Head: "boof-runner/p-x",
		Base: "main", PushedSHA: "abc", Number: 3, URL: "https://github.com/o/r/pull/3", State: "open",
		Checks: []PRCheck{{Name: "ci", State: "pending"}}, Pulled: []int64{7}}
	if err := s.SavePullRequest(ctx, rec); err != nil {
		t.Fatal(err)
	}
	got, err := s.PullRequest(ctx, tk.ID)
	if err != nil || got.Number != 3 || got.Checks[0].Name != "ci" || len(got.Pulled) != 1 || got.CreatedAt.IsZero() || !got.Open() {
		t.Fatalf("read back: %+v %v", got, err)
	}
	if open, err := s.OpenPullRequests(ctx); err != nil || len(open) != 1 {
		t.Fatalf("open ones: %v %v", open, err)
	}
	// Not done: the merge is recorded, the status stays.
	got.MergeSHA = "m1"
	if accepted, err := s.MergedPR(ctx, got); err != nil || accepted {
		t.Fatalf("merge of a pending task: %v %v", accepted, err)
	}
	if tk2, _ := s.GetTask(ctx, tk.ID); tk2.Status != task.StatusPending {
		t.Fatalf("status: %s", tk2.Status)
	}
	if _, err := s.Claim(ctx, tk.ID, ClaimInfo{Role: task.RoleDeveloper, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Transition(ctx, tk.ID, task.StatusDone, TransitionNote{}); err != nil {
		t.Fatal(err)
	}
	if accepted, err := s.MergedPR(ctx, got); err != nil || !accepted {
		t.Fatalf("merge of a done task: %v %v", accepted, err)
	}
	if tk2, _ := s.GetTask(ctx, tk.ID); tk2.Status != task.StatusAccepted {
		t.Fatalf("status after the merge: %s", tk2.Status)
	}
	if open, _ := s.OpenPullRequests(ctx); len(open) != 0 {
		t.Fatalf("a merged one is open: %v", open)
	}
	if err := s.DeleteTask(ctx, tk.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PullRequest(ctx, tk.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("record after the task's delete: %v", err)
	}
}

// A task made from an issue is linked to it; the link goes with the task.
func TestCreateTaskFromIssue(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	tk, err := s.CreateTaskFromIssue(ctx, task.NewTask{Prompt: "from the issue"}, IssueLink{Forge: "gitlab", Host: "gitlab.com", Project: "g/p", Number: 4, URL: "https://gitlab.com/g/p/-/issues/4", Title: "T"})
	if err != nil {
		t.Fatal(err)
	}
	l, ok, err := s.Issue(ctx, tk.ID)
	if err != nil || !ok || l.Number != 4 || l.Project != "g/p" {
		t.Fatalf("link: %+v %v %v", l, ok, err)
	}
	if _, err := s.CreateTaskFromIssue(ctx, task.NewTask{Prompt: " "}, IssueLink{}); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("an empty prompt: %v", err)
	}
}
