package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// withObserver configures the observer step.
func withObserver(s *settings.Settings) { s.Roles.Observer = &settings.ToolRef{Tool: "mock"} }

// logGit makes the env's worktree manager run git through a wrapper that
// logs every call's arguments; it returns a reader of the log's lines.
func (e *env) logGit() func() []string {
	e.t.Helper()
	dir := e.t.TempDir()
	log := filepath.Join(dir, "calls.log")
	wrapper := filepath.Join(dir, "git")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\nprintf '%s\\n' \"$*\" >> "+log+"\nexec git \"$@\"\n"), 0o755); err != nil {
		e.t.Fatal(err)
	}
	e.opts.Worktrees = worktree.NewManager(gitx.New(gitx.WithBinary(wrapper)), time.Now)
	e.p = New(e.opts)
	return func() []string {
		b, _ := os.ReadFile(log)
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
}

func countCalls(calls []string, with string) int {
	n := 0
	for _, c := range calls {
		if strings.Contains(c, with) {
			n++
		}
	}
	return n
}

// Read-only steps that follow one another share the guard's record: the
// worktree the planner's guard found unchanged is the refinement's record,
// and the observer's (which carries the developer's uncommitted work) is
// the reviewer's, prompt diff included. Git status runs 6 times, not 8, and
// the prompt diff once, not twice; the reviewer gets the observer's diff.
func TestConsecutiveReadOnlyStepsShareTheGuardRecord(t *testing.T) {
	e := newEnv(t, withObserver)
	calls := e.logGit()
	tk := e.addTask("Write the mock file.", 1)
	if res := e.claimRun(context.Background(), tk.ID); res.Status != task.StatusDone {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	got := calls()
	if n := countCalls(got, "status --porcelain=v2"); n != 6 {
		t.Errorf("git status ran %d times, want 6 (before and after the planner and the observer, after the refinement and the reviewer)\n%s", n, strings.Join(got, "\n"))
	}
	if n := countCalls(got, "--src-prefix=a/"); n != 1 {
		t.Errorf("the prompt diff was taken %d times, want once\n%s", n, strings.Join(got, "\n"))
	}
	obs, rev := e.rec.prompts(task.RoleObserver), e.rec.prompts(task.RoleReviewer)
	if len(obs) != 1 || len(rev) != 1 {
		t.Fatalf("prompts: %d observer, %d reviewer", len(obs), len(rev))
	}
	wt := filepath.Join(e.repo, worktree.DefaultRootName, tk.ID)
	for _, want := range []string{"+Uncommitted note of run 1.", mock.ScratchName(wt)} {
		if !strings.Contains(obs[0], want) || !strings.Contains(rev[0], want) {
			t.Errorf("%q is not in both the observer's and the reviewer's prompt", want)
		}
	}
	if len(e.strayEvents(tk.ID)) != 0 {
		t.Errorf("stray events %+v", e.strayEvents(tk.ID))
	}
}

// A reviewer that changes the worktree on the observer's record is caught
// as on its own: its changes are saved on the stray ref, whose first
// parent is the worktree as the developer left it (uncommitted work and
// untracked file), and reverted, so the leftovers hold the developer's
// work and nothing of the reviewer's.
func TestStrayOnASharedRecordIsSavedAndReverted(t *testing.T) {
	e := newEnv(t, withObserver)
	tk := e.addTask("Write the mock file.\n[[mock-stray reviewer=1]]", 1)
	if res := e.claimRun(context.Background(), tk.ID); res.Status != task.StatusDone {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	strays := e.strayEvents(tk.ID)
	if len(strays) != 1 || strays[0].Role != task.RoleReviewer || !strays[0].HeadMoved {
		t.Fatalf("stray events %+v", strays)
	}
	committed, untracked := mock.StrayNames("reviewer")
	wt := filepath.Join(e.repo, worktree.DefaultRootName, tk.ID)
	scratch, file := mock.ScratchName(wt), mock.FileName(wt)
	before := strays[0].SHA + "^1"
	if gitRun(t, e.repo, "show", before+":"+scratch) != "scratch of run 1" ||
		!strings.Contains(gitRun(t, e.repo, "show", before+":"+file), "Uncommitted note of run 1.") {
		t.Errorf("the stray ref's state before the reviewer is not the developer's worktree:\n%s", gitRun(t, e.repo, "ls-tree", "-r", "--name-only", before))
	}
	left := worktree.LeftoversBranchName(tk.ID)
	files := gitRun(t, e.repo, "ls-tree", "-r", "--name-only", left)
	if !strings.Contains(files, scratch) || strings.Contains(files, committed) || strings.Contains(files, untracked) {
		t.Errorf("leftovers:\n%s", files)
	}
	if strings.Contains(gitRun(t, e.repo, "show", left+":README.md"), "edited by the reviewer") {
		t.Error("the reviewer's edit of README.md reached the leftovers")
	}
}

// A wait between two read-only attempts (a retry's backoff) ends the
// sharing: what the user changes in the worktree meanwhile is theirs, not
// the retried step's, and stays (it is not reverted or saved aside).
func TestUserEditDuringBackoffIsNotTakenForTheStep(t *testing.T) {
	e := newEnv(t, withObserver)
	tk := e.addTask("Write the mock file.\n[[mock-transient reviewer=1]]", 1)
	wt := filepath.Join(e.repo, worktree.DefaultRootName, tk.ID)
	var once bool
	e.onSleep = func() {
		if once {
			return
		}
		once = true
		if err := os.WriteFile(filepath.Join(wt, "user-notes.txt"), []byte("mine\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	if res := e.claimRun(context.Background(), tk.ID); res.Status != task.StatusDone {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	if !once {
		t.Fatal("the reviewer was not retried after a backoff")
	}
	if s := e.strayEvents(tk.ID); len(s) != 0 {
		t.Errorf("the user's file was taken for the reviewer's: %+v", s)
	}
	files := gitRun(t, e.repo, "ls-tree", "-r", "--name-only", worktree.LeftoversBranchName(tk.ID))
	if !strings.Contains(files, "user-notes.txt") {
		t.Errorf("the user's file is not in the leftovers:\n%s", files)
	}
}
