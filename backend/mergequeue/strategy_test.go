package mergequeue

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/task"
)

// commitOnBranch adds a commit with files to a task branch.
func (f *fixture) commitOnBranch(branch, subject string, files map[string]string) {
	f.t.Helper()
	wt := filepath.Join(f.t.TempDir(), "more")
	sh(f.t, f.repo, "worktree", "add", "-q", wt, branch)
	for name, body := range files {
		write(f.t, filepath.Join(wt, name), body)
	}
	sh(f.t, wt, "add", "-A")
	sh(f.t, wt, "commit", "-qm", subject)
	sh(f.t, f.repo, "worktree", "remove", "--force", wt)
}

// The queue lands with each strategy: a rebase entry replays the task's
// two commits onto main (no merge commit), a squash entry after it is one
// commit on top, built on the tip the rebase left, verified there; main's
// history stays linear and holds every file.
func TestLandsWithRebaseAndSquash(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	a := f.doneTask("Add alpha", map[string]string{"alpha.txt": "a\n"})
	f.commitOnBranch(review.TaskBranch(a.ID), "Tune alpha", map[string]string{"alpha.txt": "a2\n"})
	b := f.doneTask("Add beta", map[string]string{"beta.txt": "b\n"})
	f.commitOnBranch(review.TaskBranch(b.ID), "Tune beta", map[string]string{"beta.txt": "b2\n"})
	// main moves under both before the queue runs: nothing fast-forwards.
	write(t, filepath.Join(f.repo, "README.md"), "one\ntwo\nthree\nfour\n")
	sh(t, f.repo, "commit", "-qam", "Meanwhile on main")
	if _, err := f.q.Add(ctx, []string{a.ID}, "", "rebase"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.q.Add(ctx, []string{b.ID}, "main", "squash"); err != nil {
		t.Fatal(err)
	}
	if n := f.pass(); n != 2 {
		t.Fatalf("pass handled %d entries", n)
	}
	squash := strings.SplitN(review.DefaultMessage(review.StrategySquash, b.ID, "Add beta", ""), "\n", 2)[0]
	want := strings.Join([]string{squash, "Tune alpha", "Add alpha", "Meanwhile on main", "init"}, "\n")
	if got := sh(t, f.repo, "log", "--format=%s", "main"); got != want {
		t.Fatalf("main's history:\n%s\nwant\n%s", got, want)
	}
	if merges := sh(t, f.repo, "rev-list", "--merges", "main"); merges != "" {
		t.Fatalf("merge commits on main: %s", merges)
	}
	if tree := sh(t, f.repo, "ls-tree", "-r", "--name-only", "main"); !strings.Contains(tree, "alpha.txt") || !strings.Contains(tree, "beta.txt") {
		t.Fatalf("main's tree:\n%s", tree)
	}
	if got := sh(t, f.repo, "show", "main:beta.txt"); got != "b2" {
		t.Fatalf("beta.txt on main is %q", got)
	}
	ea, eb := f.entry(a.ID), f.entry(b.ID)
	if ea.Strategy != "rebase" || eb.Strategy != "squash" || ea.State != task.QueueLanded || eb.State != task.QueueLanded || !ea.Verified || !eb.Verified {
		t.Fatalf("entries %+v\n%+v", ea, eb)
	}
	if eb.BaseSHA != ea.Landed || eb.Landed != sh(t, f.repo, "rev-parse", "main") {
		t.Fatalf("the squash was not built on the rebase's tip: base %s, rebase landed %s", eb.BaseSHA, ea.Landed)
	}
	// The rebased commits are new (main had moved), the task branch keeps its own.
	if sh(t, f.repo, "rev-parse", "main~1") == sh(t, f.repo, "rev-parse", review.TaskBranch(a.ID)) {
		t.Fatal("the rebase did not replay the commits onto the moved main")
	}
	for _, tk := range []task.Task{a, b} {
		if got := f.get(tk.ID); got.Status != task.StatusAccepted {
			t.Fatalf("task %s is %s", tk.ID, got.Status)
		}
	}
	if st := sh(t, f.repo, "status", "--porcelain"); st != "" {
		t.Fatalf("checkout status %q", st)
	}
}
