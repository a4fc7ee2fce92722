package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

// TestBadInputChangesNothing is the bad input table: each case gets a
// clear, typed error and leaves the task exactly as it was.
func TestBadInputChangesNothing(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	cases := []struct {
		name   string
		status task.Status
		op     func(id string) error
		check  func(error) bool
		msg    string
	}{
		{"priority overflow (edit)", task.StatusPending, func(id string) error {
			_, err := s.UpdateTask(ctx, id, TaskEdit{Prompt: "p", Priority: task.MaxPriority + 1})
			return err
		}, isInvalid, "priority"},
		{"priority overflow (set)", task.StatusPending, func(id string) error { return s.SetPriority(ctx, id, 1<<40) }, isInvalid, "priority"},
		{"label with comma", task.StatusPending, func(id string) error {
			_, err := s.UpdateTask(ctx, id, TaskEdit{Prompt: "p", Labels: []string{"a,b"}})
			return err
		}, isInvalid, "comma"},
		{"label with newline", task.StatusDraft, func(id string) error {
			_, err := s.UpdateTask(ctx, id, TaskEdit{Prompt: "p", Labels: []string{"a\nb"}})
			return err
		}, isInvalid, "label"},
		{"attachment traversal", task.StatusPending, func(id string) error {
			_, err := s.AddAttachment(ctx, id, "../../etc/passwd", strings.NewReader("root"), 0)
			return err
		}, isInvalid, "path separator"},
		{"attachment NUL", task.StatusPending, func(id string) error {
			_, err := s.AddAttachment(ctx, id, "a\x00b.txt", strings.NewReader("x"), 0)
			return err
		}, isInvalid, "NUL"},
		{"attachment dotdot", task.StatusPending, func(id string) error {
			_, err := s.AddAttachment(ctx, id, "..", strings.NewReader("x"), 0)
			return err
		}, isInvalid, "not a file name"},
		{"attachment too large", task.StatusPending, func(id string) error {
			_, err := s.AddAttachment(ctx, id, "big.bin", strings.NewReader(strings.Repeat("x", 11)), 10)
			return err
		}, func(err error) bool { return errors.Is(err, ErrTooLarge) }, "limit"},
		{"edit ongoing", task.StatusOngoing, func(id string) error {
			_, err := s.UpdateTask(ctx, id, TaskEdit{Prompt: "new prompt"})
			return err
		}, isStatusErr, "ongoing"},
		{"delete ongoing", task.StatusOngoing, func(id string) error { return s.DeleteTask(ctx, id) }, isStatusErr, "ongoing"},
		{"answer pending", task.StatusPending, func(id string) error {
			_, err := s.Answer(ctx, id, "42")
			return err
		}, isStatusErr, "actions"},
		{"answer empty", task.StatusActions, func(id string) error {
			_, err := s.Answer(ctx, id, "  ")
			return err
		}, isInvalid, "empty"},
		{"retry done", task.StatusDone, func(id string) error {
			_, err := s.Retry(ctx, id)
			return err
		}, isStatusErr, "failed"},
		{"stop pending", task.StatusPending, func(id string) error { return s.RequestStop(ctx, id) }, isStatusErr, "ongoing"},
		{"inject done", task.StatusDone, func(id string) error {
			_, err := s.Inject(ctx, id, "more")
			return err
		}, isStatusErr, "done"},
		{"bad tool role", task.StatusPending, func(id string) error {
			_, err := s.UpdateTask(ctx, id, TaskEdit{Prompt: "p", Tools: task.Tools{"boss": {Tool: "claude"}}})
			return err
		}, isInvalid, "role"},
		{"bad command name", task.StatusPending, func(id string) error {
			_, err := s.UpdateTask(ctx, id, TaskEdit{Prompt: "p", Command: "../x"})
			return err
		}, isInvalid, "command"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tk := mustCreate(t, s, task.NewTask{Draft: true, Labels: []string{"keep"}})
			forceStatus(t, s, tk.ID, c.status)
			before := snap(t, s, tk.ID)
			err := c.op(tk.ID)
			if err == nil || !c.check(err) {
				t.Fatalf("want typed error, got %v", err)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %q does not mention %q", err, c.msg)
			}
			assertUnchanged(t, s, before)
			entries, _ := os.ReadDir(filepath.Join(s.attachDir, tk.ID))
			for _, e := range entries {
				t.Fatalf("file left behind: %s", e.Name())
			}
		})
	}
}

func isInvalid(err error) bool { return errors.Is(err, task.ErrInvalid) }

func TestHugePromptStoredWhole(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	big := strings.Repeat("0123456789abcdef", 5<<20/16) + "END"
	tk := mustCreate(t, s, task.NewTask{Prompt: big})
	got, err := s.GetTask(ctx, tk.ID)
	if err != nil || got.Prompt != big {
		t.Fatalf("5 MB prompt came back with %d bytes (%v)", len(got.Prompt), err)
	}
	secs, _ := s.Sections(ctx, tk.ID)
	if len(secs) != 1 || secs[0].Kind != task.SectionPrompt || secs[0].Body != big {
		t.Fatalf("prompt section not stored whole")
	}
}

func TestUpdateTaskReplacesFields(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{Prompt: "old"})
	if _, err := s.SaveCommand(ctx, "review", "Review it."); err != nil {
		t.Fatal(err)
	}
	got, err := s.UpdateTask(ctx, tk.ID, TaskEdit{Title: "T", Prompt: "new", Labels: []string{"x"}, Priority: 7, Runs: 3,
		Base: "main", Command: "review", Tools: task.Tools{task.RoleDeveloper: {Tool: "codex", Model: "gpt-5"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "T" || got.Prompt != "new" || got.Priority != 7 || got.Runs != 3 || got.Base != "main" ||
		got.Command != "review" || got.Tools[task.RoleDeveloper].Tool != "codex" || got.Labels[0] != "x" {
		t.Fatalf("updated = %+v", got)
	}
	secs, _ := s.Sections(ctx, tk.ID)
	if secs[0].Body != "new" {
		t.Fatalf("prompt section = %q", secs[0].Body)
	}
}

func TestAnswerRequeuesWithSection(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{})
	forceStatus(t, s, tk.ID, task.StatusOngoing)
	if err := s.SetQuestions(ctx, tk.ID, []string{"Which DB?", " ", "Which port?"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Transition(ctx, tk.ID, task.StatusActions, TransitionNote{Reason: "questions"}); err != nil {
		t.Fatal(err)
	}
	parked, _ := s.GetTask(ctx, tk.ID)
	if len(parked.Questions) != 2 || parked.Questions[1] != "Which port?" {
		t.Fatalf("questions = %q", parked.Questions)
	}
	got, err := s.Answer(ctx, tk.ID, "SQLite, 8080")
	if err != nil || got.Status != task.StatusPending || len(got.Questions) != 0 {
		t.Fatalf("answer: %+v %v", got, err)
	}
	secs, _ := s.Sections(ctx, tk.ID)
	last := secs[len(secs)-1]
	if last.Kind != task.SectionAnswers || last.Body != "SQLite, 8080" || secs[1].Kind != task.SectionQuestions {
		t.Fatalf("sections = %+v", secs)
	}
}

func TestRetryAndDelete(t *testing.T) {
	skipUnderWine(t, "os.RemoveAll fails (\"Invalid function\") when a task's attachments are deleted")
	s, _ := openClock(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{})
	forceStatus(t, s, tk.ID, task.StatusOngoing)
	if _, err := s.Transition(ctx, tk.ID, task.StatusFailed, TransitionNote{Error: "tests failed", Branch: "boof/x", WorktreePath: "/wt"}); err != nil {
		t.Fatal(err)
	}
	failed, _ := s.GetTask(ctx, tk.ID)
	if failed.Error != "tests failed" || failed.FinishedAt == nil || failed.Branch != "boof/x" {
		t.Fatalf("failed = %+v", failed)
	}
	got, err := s.Retry(ctx, tk.ID)
	if err != nil || got.Status != task.StatusPending || got.Error != "" || got.Branch != "boof/x" || got.WorktreePath != "/wt" {
		t.Fatalf("retry: %+v %v", got, err)
	}
	if _, err := s.AddAttachment(ctx, tk.ID, "notes.txt", strings.NewReader("hi"), 0); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendLog(ctx, tk.ID, 0, task.LevelInfo, "line"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteTask(ctx, tk.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetTask(ctx, tk.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
	if _, err := os.Stat(filepath.Join(s.attachDir, tk.ID)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("attachment dir left: %v", err)
	}
	var n int
	s.db.QueryRow(`SELECT (SELECT count(*) FROM log_lines) + (SELECT count(*) FROM events) + (SELECT count(*) FROM sections) + (SELECT count(*) FROM executions)`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d child rows left after delete", n)
	}
	if err := s.DeleteTask(ctx, tk.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete twice: %v", err)
	}
}

func TestRunCountersAndOutcome(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{Runs: 2})
	for want := 1; want <= 2; want++ {
		if n, err := s.IncrementCompletedRuns(ctx, tk.ID); err != nil || n != want {
			t.Fatalf("increment: %d %v", n, err)
		}
	}
	if err := s.SetRunOutcome(ctx, tk.ID, RunOutcome{Branch: "b", BaseSHA: "aaa", HeadSHA: "bbb"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetRunOutcome(ctx, tk.ID, RunOutcome{HeadSHA: "ccc"}); err != nil {
		t.Fatal(err)
	}
	got, _ := s.GetTask(ctx, tk.ID)
	if got.CompletedRuns != 2 || got.Branch != "b" || got.BaseSHA != "aaa" || got.HeadSHA != "ccc" {
		t.Fatalf("got %+v", got)
	}
	if _, err := s.IncrementCompletedRuns(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	if err := s.SetRunOutcome(ctx, "nope", RunOutcome{}); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
}
