package store

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

func commandCopy(t *testing.T, s *Store, id string) []string {
	t.Helper()
	secs, err := s.Sections(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, sec := range secs {
		if sec.Kind == task.SectionCommand {
			out = append(out, sec.Body)
		}
	}
	return out
}

// A task keeps the template's text from when it was added: editing or
// deleting the template afterwards changes no task.
func TestCommandTextCopiedAtAdd(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	if _, err := s.SaveCommand(ctx, "tests", "Run `go test ./...` before you finish."); err != nil {
		t.Fatal(err)
	}
	tk := mustCreate(t, s, task.NewTask{Prompt: "fix the bug", Command: "tests"})
	if got := commandCopy(t, s, tk.ID); len(got) != 1 || got[0] != "Run `go test ./...` before you finish." {
		t.Fatalf("copy at add = %q", got)
	}
	if _, err := s.SaveCommand(ctx, "tests", "Something else."); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteCommand(ctx, "tests"); err != nil {
		t.Fatal(err)
	}
	if got := commandCopy(t, s, tk.ID); len(got) != 1 || got[0] != "Run `go test ./...` before you finish." {
		t.Fatalf("copy after the template changed and went = %q", got)
	}
	// Editing the task with the same name keeps its copy even though the
	// template is gone.
	if _, err := s.UpdateTask(ctx, tk.ID, TaskEdit{Prompt: "fix the bug now", Command: "tests", Runs: 1}); err != nil {
		t.Fatalf("edit keeping the deleted template's name: %v", err)
	}
	if got := commandCopy(t, s, tk.ID); len(got) != 1 || !strings.HasPrefix(got[0], "Run `go test") {
		t.Fatalf("copy after edit = %q", got)
	}
	evs, _ := s.Events(ctx, tk.ID, time.Time{})
	if c, ok := evs[0].Data.(task.Created); !ok || c.Command != "tests" {
		t.Fatalf("created event = %#v", evs[0].Data)
	}
}

func TestCommandChangedOnEdit(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	for name, text := range map[string]string{"a": "Text A.", "b": "Text B."} {
		if _, err := s.SaveCommand(ctx, name, text); err != nil {
			t.Fatal(err)
		}
	}
	tk := mustCreate(t, s, task.NewTask{Prompt: "p", Command: "a"})
	if _, err := s.UpdateTask(ctx, tk.ID, TaskEdit{Prompt: "p", Command: "b", Runs: 1}); err != nil {
		t.Fatal(err)
	}
	if got := commandCopy(t, s, tk.ID); len(got) != 1 || got[0] != "Text B." {
		t.Fatalf("after switching to b: %q", got)
	}
	before := snap(t, s, tk.ID)
	if _, err := s.UpdateTask(ctx, tk.ID, TaskEdit{Prompt: "p", Command: "gone", Runs: 1}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown template: %v", err)
	}
	assertUnchanged(t, s, before)
	if _, err := s.UpdateTask(ctx, tk.ID, TaskEdit{Prompt: "p", Runs: 1}); err != nil {
		t.Fatal(err)
	}
	if got := commandCopy(t, s, tk.ID); len(got) != 0 {
		t.Fatalf("after removing the template: %q", got)
	}
}

func TestCreateWithUnknownCommandStoresNothing(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	_, err := s.CreateTask(ctx, task.NewTask{Prompt: "p", Command: "nope"})
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.What != WhatCommand || nf.ID != "nope" {
		t.Fatalf("err = %v", err)
	}
	if list, _ := s.ListTasks(ctx, Filter{}); len(list) != 0 {
		t.Fatalf("a task was stored: %+v", list)
	}
}

// failingReader returns some bytes, then an error.
type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n > 0 {
		r.n = 0
		return copy(p, "partial"), nil
	}
	return 0, errors.New("disk on fire")
}

func TestCreateWithFilesIsAtomic(t *testing.T) {
	skipUnderWine(t, "os.RemoveAll fails (\"Invalid function\"), so refused creates cannot remove their attachment folders")
	s, _ := openClock(t)
	ctx := context.Background()
	tk, atts, err := s.CreateTaskWithFiles(ctx, task.NewTask{Prompt: "look at these"}, []NewFile{
		{Name: "spec.txt", Data: strings.NewReader("the spec\n")},
		{Name: "shot.png", Data: bytes.NewReader([]byte{0x89, 'P', 'N', 'G', 0, 1, 2})},
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(atts) != 2 || atts[0].Name != "spec.txt" || atts[0].Size != 9 || atts[1].Size != 7 {
		t.Fatalf("attachments = %+v", atts)
	}
	got, _ := s.Attachments(ctx, tk.ID)
	if len(got) != 2 {
		t.Fatalf("stored = %+v", got)
	}
	for _, a := range got {
		b, err := os.ReadFile(a.Path)
		if err != nil || int64(len(b)) != a.Size {
			t.Fatalf("file %s: %v (%d bytes)", a.Path, err, len(b))
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(got[0].Path))
	if len(entries) != 2 {
		t.Fatalf("the attachment directory holds %d entries (temporary files left?)", len(entries))
	}

	bad := []struct {
		name  string
		files []NewFile
		want  error
	}{
		{"unreadable", []NewFile{{Name: "a.txt", Data: strings.NewReader("a")}, {Name: "b.txt", Data: &failingReader{n: 1}}}, nil},
		{"too large", []NewFile{{Name: "big.bin", Data: io.LimitReader(zeros{}, 11)}}, ErrTooLarge},
		{"twice", []NewFile{{Name: "a.txt", Data: strings.NewReader("a")}, {Name: "a.txt", Data: strings.NewReader("b")}}, task.ErrInvalid},
		{"bad name", []NewFile{{Name: "../etc/passwd", Data: strings.NewReader("a")}}, task.ErrInvalid},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := s.CreateTaskWithFiles(ctx, task.NewTask{Prompt: "p " + c.name}, c.files, 10)
			if err == nil || (c.want != nil && !errors.Is(err, c.want)) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			list, _ := s.ListTasks(ctx, Filter{Search: "p " + c.name})
			if len(list) != 0 {
				t.Fatalf("a task was stored: %+v", list)
			}
		})
	}
	dirs, _ := os.ReadDir(s.attachDir)
	if len(dirs) != 1 {
		t.Fatalf("attachment directories after refused creates: %d, want 1", len(dirs))
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// undoTaskContent drops what migration 5 adds, so that a test can reopen
// the database as an older version left it.
const undoTaskContent = `DROP INDEX tasks_origin; ALTER TABLE tasks DROP COLUMN origin_id; ALTER TABLE tasks DROP COLUMN extra; `

// Tasks added before the copy existed get one from the template when the
// database is migrated; a template that is gone leaves the task as it was.
func TestMigrationCopiesCommandText(t *testing.T) {
	s, path := openTemp(t)
	ctx := context.Background()
	if _, err := s.SaveCommand(ctx, "lint", "Run the linter."); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveCommand(ctx, "gone", "Deleted later."); err != nil {
		t.Fatal(err)
	}
	a := mustCreate(t, s, task.NewTask{Prompt: "a", Command: "lint"})
	b := mustCreate(t, s, task.NewTask{Prompt: "b", Command: "gone"})
	if _, err := s.db.Exec(`DELETE FROM sections WHERE kind = 'command'`); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteCommand(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(undoRemoteRuns + undoReviewDrafts + undoPullRequests + undoCleanupsLeft + undoNextStep + undoLimits + undoTaskContent + undoFixRuns + `PRAGMA user_version = 4`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got := commandCopy(t, s2, a.ID); len(got) != 1 || got[0] != "Run the linter." {
		t.Fatalf("migrated copy = %q", got)
	}
	if got := commandCopy(t, s2, b.ID); len(got) != 0 {
		t.Fatalf("copy of a deleted template = %q", got)
	}
}

func TestRecordRepoAndClaim(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{Prompt: "p"})
	if _, err := s.Claim(ctx, tk.ID, ClaimInfo{Role: task.RolePlanner, Tool: "mock", Repo: "/src/app"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetTask(ctx, tk.ID); got.Repo != "/src/app" {
		t.Fatalf("repo after claim = %q", got.Repo)
	}
	kept := mustCreate(t, s, task.NewTask{Prompt: "q", Repo: "/src/mine"})
	if _, err := s.Claim(ctx, kept.ID, ClaimInfo{Role: task.RolePlanner, Tool: "mock", Repo: "/src/app"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetTask(ctx, kept.ID); got.Repo != "/src/mine" {
		t.Fatalf("a recorded repo was replaced at claim: %q", got.Repo)
	}

	orphan := mustCreate(t, s, task.NewTask{Prompt: "r"})
	if _, err := s.db.Exec(`UPDATE tasks SET branch = 'boof-runner/' || id WHERE id = ?`, orphan.ID); err != nil {
		t.Fatal(err)
	}
	list, err := s.TasksWithoutRepo(ctx)
	if err != nil || len(list) != 1 || list[0].ID != orphan.ID {
		t.Fatalf("tasks without repo = %+v, %v", list, err)
	}
	if _, err := s.RecordRepo(ctx, orphan.ID, "relative/dir"); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("relative repo: %v", err)
	}
	if ok, err := s.RecordRepo(ctx, orphan.ID, "/src/app"); !ok || err != nil {
		t.Fatalf("record: %v %v", ok, err)
	}
	if ok, err := s.RecordRepo(ctx, orphan.ID, "/elsewhere"); ok || err != nil {
		t.Fatalf("second record changed it: %v %v", ok, err)
	}
	if _, err := s.RecordRepo(ctx, "nope", "/x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing task: %v", err)
	}
	if list, _ := s.TasksWithoutRepo(ctx); len(list) != 0 {
		t.Fatalf("still without repo: %+v", list)
	}
}
