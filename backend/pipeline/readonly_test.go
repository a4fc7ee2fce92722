package pipeline

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// strayEvents returns the stray_reverted events stored for a task.
func (e *env) strayEvents(id string) []task.StrayReverted {
	e.t.Helper()
	evs, err := e.st.Events(context.Background(), id, time.Time{})
	if err != nil {
		e.t.Fatal(err)
	}
	var out []task.StrayReverted
	for _, ev := range evs {
		if s, ok := ev.Data.(task.StrayReverted); ok {
			out = append(out, s)
		}
	}
	return out
}

// A reviewer that edits a tracked file, commits a file and leaves an
// untracked one through its shell: the task still ends done, none of it is
// on the task branch or its leftovers, all of it is on the stray ref, the
// log and the history name the files, and the reviewer's report says so.
func TestReadOnlyReviewerStrayEditsSavedAsideAndReverted(t *testing.T) {
	e := newEnv(t, nil)
	tk := e.addTask("Write the mock file.\n[[mock-stray reviewer=1]]", 1)
	res := e.claimRun(context.Background(), tk.ID)
	if res.Status != task.StatusDone {
		t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	got := e.get(tk.ID)
	committed, untracked := mock.StrayNames("reviewer")
	branch := worktree.BranchName(tk.ID)
	files := gitRun(t, e.repo, "ls-tree", "-r", "--name-only", branch)
	if strings.Contains(files, "stray-") || strings.Contains(gitRun(t, e.repo, "show", branch+":README.md"), "edited by the reviewer") {
		t.Errorf("the reviewer's edits reached the task branch:\n%s", files)
	}
	if e.branchExists(worktree.LeftoversBranchName(tk.ID)) {
		left := gitRun(t, e.repo, "ls-tree", "-r", "--name-only", worktree.LeftoversBranchName(tk.ID))
		if strings.Contains(left, "stray-") {
			t.Errorf("the reviewer's edits reached the leftovers:\n%s", left)
		}
	}
	strays := e.strayEvents(tk.ID)
	if len(strays) != 1 {
		t.Fatalf("stray events %+v", strays)
	}
	s := strays[0]
	if s.Role != task.RoleReviewer || !s.HeadMoved || strings.Join(s.Files, ",") != "README.md,"+untracked+","+committed || len(s.Unreverted) != 0 {
		t.Errorf("stray event %+v", s)
	}
	if want := "refs/boof-runner/" + tk.ID + "/stray/"; !strings.HasPrefix(s.Ref, want) || gitRun(t, e.repo, "rev-parse", s.Ref) != s.SHA {
		t.Errorf("stray ref %s %s", s.Ref, s.SHA)
	}
	if gitRun(t, e.repo, "show", s.SHA+":"+untracked) != "left by the reviewer" || gitRun(t, e.repo, "show", s.SHA+":"+committed) != "committed by the reviewer" {
		t.Error("the stray ref does not hold the reviewer's files")
	}
	mustContain(t, e.logText(tk.ID), "reviewer-1 is read-only but changed \"README.md\"", "were reverted")
	rev := e.sections(tk.ID, task.SectionReviewerReport)
	if len(rev) != 1 || !strings.HasPrefix(rev[0].Body, "> **Note from Boof Runner:** reviewer-1 is read-only") || rev[0].Verdict != string(task.VerdictApprove) {
		t.Errorf("reviewer report %+v", rev)
	}
	if got.Status != task.StatusDone {
		t.Errorf("task %s", got.Status)
	}
	// The tool was told: the reviewer ran read-only, the developer did not.
	for _, q := range e.rec.reqs {
		if q.ReadOnly != (q.Role != task.RoleDeveloper) {
			t.Errorf("%s ran with ReadOnly=%v", q.Role, q.ReadOnly)
		}
	}
}

// The mock honours the setting: a read-only reviewer's own write is
// refused; with roles.reviewer.write: true it writes, and its file is
// part of the work (on the leftovers), with no stray ref.
func TestReviewerWriteAccessSetting(t *testing.T) {
	for _, write := range []bool{false, true} {
		e := newEnv(t, func(s *settings.Settings) {
			if write {
				w := true
				s.Roles.Reviewer.Write = &w
			}
		})
		tk := e.addTask("Write the mock file.\n[[mock-write reviewer=1]]", 1)
		if res := e.claimRun(context.Background(), tk.ID); res.Status != task.StatusDone {
			t.Fatalf("write=%v: status %s %q", write, res.Status, res.Message)
		}
		note := mock.NoteName("reviewer")
		left := ""
		if e.branchExists(worktree.LeftoversBranchName(tk.ID)) {
			left = gitRun(t, e.repo, "ls-tree", "-r", "--name-only", worktree.LeftoversBranchName(tk.ID))
		}
		if strings.Contains(left, note) != write {
			t.Errorf("write=%v: leftovers %q", write, left)
		}
		if n := len(e.strayEvents(tk.ID)); n != 0 {
			t.Errorf("write=%v: %d stray events", write, n)
		}
		rev := e.sections(tk.ID, task.SectionReviewerReport)
		if want := map[bool]string{false: "Could not write", true: "Wrote "}[write]; len(rev) != 1 || !strings.Contains(rev[0].Body, want) {
			t.Errorf("write=%v: report %+v", write, rev)
		}
	}
}

// A stray file the revert cannot remove (immutable): the task fails with
// the reason, the change is on the stray ref, and nothing is lost.
func TestReadOnlyStrayThatCannotBeReverted(t *testing.T) {
	if err := exec.Command("chattr", "--help").Run(); err != nil && !strings.Contains(err.Error(), "exit status") {
		t.Skip("no chattr")
	}
	e := newEnv(t, nil)
	tk := e.addTask("Write the mock file.\n[[mock-stray observer=1]]\n[[mock-lock observer=1]]", 1)
	e.set.Roles.Observer = &settings.ToolRef{Tool: mock.Name}
	res := e.claimRun(context.Background(), tk.ID)
	_, untracked := mock.StrayNames("observer")
	got := e.get(tk.ID)
	t.Cleanup(func() { _ = exec.Command("chattr", "-i", filepath.Join(got.WorktreePath, untracked)).Run() })
	if _, err := os.Stat(filepath.Join(got.WorktreePath, untracked)); err != nil {
		t.Skipf("the lock did not hold here: %v", err)
	}
	if res.Status != task.StatusFailed || !strings.Contains(res.Message, "could not be put back") || !strings.Contains(res.Message, untracked) ||
		!strings.Contains(res.Message, "roles.observer.write") {
		t.Fatalf("status %s %q", res.Status, res.Message)
	}
	strays := e.strayEvents(tk.ID)
	if len(strays) != 1 || strings.Join(strays[0].Unreverted, ",") != untracked || strays[0].Error == "" {
		t.Fatalf("stray events %+v", strays)
	}
	if gitRun(t, e.repo, "show", strays[0].SHA+":"+untracked) != "left by the observer" {
		t.Error("the stray ref lacks the file")
	}
	if e.sections(tk.ID, task.SectionDeveloperReport) == nil {
		t.Error("the developer's work is not recorded")
	}
	if gitRun(t, e.repo, "ls-tree", "--name-only", worktree.BranchName(tk.ID)) == "" {
		t.Error("task branch lost")
	}
}
