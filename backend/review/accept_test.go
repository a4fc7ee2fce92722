package review

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

// fixture is a repository whose task T1 has two commits (a.txt line one
// changed, c.txt added) and whose main moved on (b.txt changed) since.
type fixture struct {
	repo, wt       string
	base, mainHead string
	taskHead       string
}

func newFixture(t *testing.T, mainMoves bool) fixture {
	t.Helper()
	f := fixture{repo: newRepo(t)}
	f.base = rev(t, f.repo, "main")
	f.wt = taskWorktree(t, f.repo, "T1")
	write(t, filepath.Join(f.wt, "a.txt"), "ONE\ntwo\nthree\n")
	commitAll(t, f.wt, "task: shout one")
	write(t, filepath.Join(f.wt, "c.txt"), "sea\n")
	f.taskHead = commitAll(t, f.wt, "task: add c")
	if mainMoves {
		write(t, filepath.Join(f.repo, "b.txt"), "bee moved\n")
		commitAll(t, f.repo, "main: move b")
	}
	f.mainHead = rev(t, f.repo, "main")
	return f
}

// detach leaves main checked out nowhere.
func (f fixture) detach(t *testing.T) {
	t.Helper()
	sh(t, f.repo, "switch", "-q", "--detach", "main")
}

func req(f fixture, st Strategy) Request {
	return Request{Repo: f.repo, TaskID: "T1", Target: "main", Strategy: st, Status: task.StatusDone, Message: "Accept T1\n\nbody\n"}
}

func TestAcceptStrategiesUncheckedOutTarget(t *testing.T) {
	t.Parallel()
	for _, st := range Strategies {
		t.Run(string(st), func(t *testing.T) {
			f := newFixture(t, true)
			f.detach(t)
			before := sh(t, f.repo, "status", "--porcelain=v1", "--untracked-files=all")
			rec := &recorder{}
			out, err := newService(t).Accept(ctx(t), req(f, st), rec)
			if err != nil {
				t.Fatal(err)
			}
			main := rev(t, f.repo, "main")
			if out.NewSHA != main || out.OldSHA != f.mainHead || out.Target != "refs/heads/main" || out.Checkout != "" {
				t.Fatalf("record = %+v, main = %s", out, main)
			}
			if len(rec.accepts) != 1 || rec.accepts[0] != out {
				t.Fatalf("recorded %+v", rec.accepts)
			}
			// The result holds both sides' work.
			if got := sh(t, f.repo, "show", "main:a.txt"); got != "ONE\ntwo\nthree" {
				t.Fatalf("a.txt = %q", got)
			}
			if got := sh(t, f.repo, "show", "main:b.txt") + sh(t, f.repo, "show", "main:c.txt"); got != "bee movedsea" {
				t.Fatalf("b.txt+c.txt = %q", got)
			}
			parents := strings.Fields(sh(t, f.repo, "log", "-1", "--format=%P", "main"))
			switch st {
			case StrategyMerge:
				if len(parents) != 2 || parents[0] != f.mainHead || parents[1] != f.taskHead {
					t.Fatalf("merge parents = %v", parents)
				}
				if msg := sh(t, f.repo, "log", "-1", "--format=%B", "main"); msg != "Accept T1\n\nbody" {
					t.Fatalf("message = %q", msg)
				}
			case StrategySquash:
				if len(parents) != 1 || parents[0] != f.mainHead {
					t.Fatalf("squash parents = %v", parents)
				}
				if n := sh(t, f.repo, "rev-list", "--count", f.mainHead+"..main"); n != "1" {
					t.Fatalf("squash added %s commits", n)
				}
			case StrategyRebase:
				if n := sh(t, f.repo, "rev-list", "--count", f.mainHead+"..main"); n != "2" {
					t.Fatalf("rebase added %s commits", n)
				}
				if m := sh(t, f.repo, "rev-list", "--merges", f.mainHead+"..main"); m != "" {
					t.Fatalf("rebase made merges: %s", m)
				}
				subjects := sh(t, f.repo, "log", "--reverse", "--format=%s", f.mainHead+"..main")
				if subjects != "task: shout one\ntask: add c" {
					t.Fatalf("subjects = %q", subjects)
				}
				if wts := sh(t, f.repo, "worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 2 {
					t.Fatalf("temporary worktree left behind:\n%s", wts)
				}
			}
			if after := sh(t, f.repo, "status", "--porcelain=v1", "--untracked-files=all"); after != before {
				t.Fatalf("working tree touched: %q → %q", before, after)
			}
			if rev(t, f.repo, "HEAD") != f.mainHead {
				t.Fatal("detached HEAD moved")
			}
			if rev(t, f.repo, TaskBranch("T1")) != f.taskHead {
				t.Fatal("task branch moved")
			}
		})
	}
}

func TestAcceptRebaseFastForward(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	f.detach(t)
	out, err := newService(t).Accept(ctx(t), req(f, StrategyRebase), nil)
	if err != nil {
		t.Fatal(err)
	}
	if out.NewSHA != f.taskHead || rev(t, f.repo, "main") != f.taskHead {
		t.Fatalf("main = %s, want the task head %s", rev(t, f.repo, "main"), f.taskHead)
	}
}

func TestAcceptIntoCleanCheckout(t *testing.T) {
	t.Parallel()
	for _, st := range Strategies {
		t.Run(string(st), func(t *testing.T) {
			f := newFixture(t, true)
			write(t, filepath.Join(f.repo, "untracked.txt"), "mine\n")
			out, err := newService(t).Accept(ctx(t), req(f, st), nil)
			if err != nil {
				t.Fatal(err)
			}
			if out.Checkout == "" {
				t.Fatal("checkout not reported")
			}
			if rev(t, f.repo, "HEAD") != out.NewSHA || sh(t, f.repo, "symbolic-ref", "HEAD") != "refs/heads/main" {
				t.Fatal("checkout not at the new commit on main")
			}
			if st := sh(t, f.repo, "status", "--porcelain=v1"); st != "?? untracked.txt" {
				t.Fatalf("status = %q", st)
			}
			if read(t, filepath.Join(f.repo, "a.txt")) != "ONE\ntwo\nthree\n" || read(t, filepath.Join(f.repo, "c.txt")) != "sea\n" {
				t.Fatal("files not updated")
			}
			for _, p := range []string{"MERGE_HEAD", "rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD"} {
				if _, err := os.Stat(filepath.Join(f.repo, ".git", p)); err == nil {
					t.Fatalf("%s left behind", p)
				}
			}
		})
	}
}

func TestAcceptRefusesDirtyCheckout(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true)
	write(t, filepath.Join(f.repo, "b.txt"), "local edit\n")
	before := snap(t, f.repo)
	p, err := newService(t).Plan(ctx(t), req(f, StrategyMerge))
	var de *DirtyError
	if !errors.As(err, &de) || !errors.Is(err, ErrDirty) || len(de.Files) != 1 || de.Files[0] != "b.txt" || p.Checkout != f.repo {
		t.Fatalf("plan err = %v, plan %+v", err, p)
	}
	_, err = newService(t).Accept(ctx(t), req(f, StrategySquash), nil)
	if !errors.As(err, &de) || de.Files[0] != "b.txt" || !strings.Contains(err.Error(), `"b.txt"`) {
		t.Fatalf("accept err = %v", err)
	}
	before.same(t, f.repo)
	if read(t, filepath.Join(f.repo, "b.txt")) != "local edit\n" {
		t.Fatal("local edit lost")
	}
}

func TestAcceptRefusesUntrackedCollision(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true)
	write(t, filepath.Join(f.repo, "c.txt"), "my own c\n")
	before := snap(t, f.repo)
	p, err := newService(t).Plan(ctx(t), req(f, StrategyRebase))
	var de *DirtyError
	if !errors.As(err, &de) || len(p.Dirty) != 1 || p.Dirty[0] != "c.txt" {
		t.Fatalf("dry run: %v, %+v", err, p)
	}
	_, err = newService(t).Accept(ctx(t), req(f, StrategyMerge), nil)
	if !errors.As(err, &de) || len(de.Files) != 1 || de.Files[0] != "c.txt" {
		t.Fatalf("err = %v", err)
	}
	before.same(t, f.repo)
	if read(t, filepath.Join(f.repo, "c.txt")) != "my own c\n" {
		t.Fatal("untracked file overwritten")
	}
}

func TestAcceptConflictChangesNothing(t *testing.T) {
	t.Parallel()
	for _, st := range Strategies {
		t.Run(string(st), func(t *testing.T) {
			f := newFixture(t, false)
			write(t, filepath.Join(f.repo, "a.txt"), "uno\ntwo\nthree\n")
			commitAll(t, f.repo, "main: uno")
			before := snap(t, f.repo)
			_, err := newService(t).Accept(ctx(t), req(f, st), nil)
			var ce *ConflictError
			if !errors.As(err, &ce) || !errors.Is(err, ErrConflict) || len(ce.Files) != 1 || ce.Files[0] != "a.txt" {
				t.Fatalf("err = %v", err)
			}
			before.same(t, f.repo)
		})
	}
}

func TestAcceptRebaseReplayConflict(t *testing.T) {
	t.Parallel()
	// The final trees merge cleanly, but replaying the first task commit
	// onto main conflicts: the rebase must report it and change nothing.
	f := fixture{repo: newRepo(t)}
	f.wt = taskWorktree(t, f.repo, "T1")
	write(t, filepath.Join(f.wt, "a.txt"), "X\ntwo\nthree\n")
	commitAll(t, f.wt, "task: X")
	write(t, filepath.Join(f.wt, "a.txt"), "Y\ntwo\nthree\n")
	write(t, filepath.Join(f.wt, "z.txt"), "zed\n")
	commitAll(t, f.wt, "task: Y")
	write(t, filepath.Join(f.repo, "a.txt"), "Y\ntwo\nthree\n")
	commitAll(t, f.repo, "main: Y")
	f.detach(t)
	before := snap(t, f.repo)
	_, err := newService(t).Accept(ctx(t), req(f, StrategyRebase), nil)
	var ce *ConflictError
	if !errors.As(err, &ce) || len(ce.Files) != 1 || ce.Files[0] != "a.txt" {
		t.Fatalf("err = %v", err)
	}
	before.same(t, f.repo)
	if wts := sh(t, f.repo, "worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 2 {
		t.Fatalf("temporary worktree left behind:\n%s", wts)
	}
}

// Work whose latest verification failed is refused with the reason, and
// nothing changes.
func TestAcceptRefusesUnverifiedWork(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	before := snap(t, f.repo)
	r := req(f, StrategyMerge)
	r.Unverified = "verification failed: ./check.sh exited 1"
	_, err := newService(t).Accept(ctx(t), r, nil)
	var nv *NotVerifiedError
	if !errors.As(err, &nv) || !errors.Is(err, ErrNotVerified) || nv.Reason != r.Unverified {
		t.Fatalf("accept err = %v", err)
	}
	if _, _, err := newService(t).Build(ctx(t), r); !errors.Is(err, ErrNotVerified) {
		t.Fatalf("build err = %v", err)
	}
	before.same(t, f.repo)
}
