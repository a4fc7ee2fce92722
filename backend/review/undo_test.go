package review

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

func TestAcceptTargetMovedBetweenDryRunAndApply(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	s := newService(t)
	p, err := s.Plan(ctx(t), req(f, StrategyMerge))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(f.repo, "b.txt"), "moved after the dry run\n")
	moved := commitAll(t, f.repo, "main: moved")
	before := snap(t, f.repo)
	r := req(f, StrategyMerge)
	r.ExpectTarget = p.TargetSHA
	_, err = s.Accept(ctx(t), r, nil)
	var me *MovedError
	if !errors.As(err, &me) || !errors.Is(err, ErrTargetMoved) || me.Expected != p.TargetSHA || me.Actual != moved {
		t.Fatalf("err = %v", err)
	}
	before.same(t, f.repo)
}

func TestAcceptTargetMovedDuringApply(t *testing.T) {
	t.Parallel()
	for _, checkedOut := range []bool{false, true} {
		name := map[bool]string{false: "not checked out", true: "checked out"}[checkedOut]
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, false)
			if !checkedOut {
				f.detach(t)
			}
			s := newService(t)
			var moved string
			s.beforeSwap = func() {
				// Another process commits onto main between build and swap.
				dir := f.repo
				if !checkedOut {
					dir = filepath.Join(t.TempDir(), "other")
					sh(t, f.repo, "worktree", "add", "-q", dir, "main")
				}
				write(t, filepath.Join(dir, "b.txt"), "racing\n")
				moved = commitAll(t, dir, "racing commit")
				if !checkedOut {
					sh(t, f.repo, "worktree", "remove", dir)
				}
			}
			rec := &recorder{}
			_, err := s.Accept(ctx(t), req(f, StrategySquash), rec)
			var me *MovedError
			if !errors.As(err, &me) || me.Actual != moved || me.Expected != f.mainHead {
				t.Fatalf("err = %v", err)
			}
			if got := rev(t, f.repo, "main"); got != moved {
				t.Fatalf("main = %s, want the racing commit %s", got, moved)
			}
			if len(rec.accepts) != 0 {
				t.Fatal("a lost accept was recorded")
			}
			if checkedOut && sh(t, f.repo, "status", "--porcelain=v1", "--untracked-files=all") != "" {
				t.Fatal("checkout changed")
			}
		})
	}
}

func TestUndoAccept(t *testing.T) {
	t.Parallel()
	for _, checkedOut := range []bool{false, true} {
		name := map[bool]string{false: "not checked out", true: "checked out"}[checkedOut]
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, true)
			if !checkedOut {
				f.detach(t)
			}
			s := newService(t)
			rec := &recorder{}
			a, err := s.Accept(ctx(t), req(f, StrategyMerge), rec)
			if err != nil {
				t.Fatal(err)
			}
			err = s.Undo(ctx(t), UndoRequest{Repo: f.repo, TaskID: "T1", Status: task.StatusAccepted, Record: a}, rec)
			if err != nil {
				t.Fatal(err)
			}
			if got := rev(t, f.repo, "main"); got != f.mainHead {
				t.Fatalf("main = %s after undo, want %s", got, f.mainHead)
			}
			if len(rec.undos) != 1 || !reflect.DeepEqual(rec.undos[0], a) {
				t.Fatalf("undos = %+v", rec.undos)
			}
			if checkedOut {
				if st := sh(t, f.repo, "status", "--porcelain=v1", "--untracked-files=all"); st != "" {
					t.Fatalf("status after undo = %q", st)
				}
				if read(t, filepath.Join(f.repo, "a.txt")) != "one\ntwo\nthree\n" {
					t.Fatal("a.txt not restored")
				}
			}
		})
	}
}

func TestUndoRefusedAfterTargetMovedOn(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true)
	s := newService(t)
	a, err := s.Accept(ctx(t), req(f, StrategySquash), nil)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(f.repo, "d.txt"), "later work\n")
	later := commitAll(t, f.repo, "later work on main")
	before := snap(t, f.repo)
	err = s.Undo(ctx(t), UndoRequest{Repo: f.repo, TaskID: "T1", Record: a}, nil)
	var me *MovedError
	if !errors.As(err, &me) || me.Expected != a.NewSHA || me.Actual != later {
		t.Fatalf("err = %v", err)
	}
	before.same(t, f.repo)
}

func TestUndoRefusedInDirtyCheckout(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true)
	s := newService(t)
	a, err := s.Accept(ctx(t), req(f, StrategyMerge), nil)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(f.repo, "c.txt"), "edited after accept\n")
	before := snap(t, f.repo)
	err = s.Undo(ctx(t), UndoRequest{Repo: f.repo, TaskID: "T1", Record: a}, nil)
	var de *DirtyError
	if !errors.As(err, &de) || len(de.Files) != 1 || de.Files[0] != "c.txt" {
		t.Fatalf("err = %v", err)
	}
	before.same(t, f.repo)
}

func TestRecorderFailurePutsTargetBack(t *testing.T) {
	t.Parallel()
	f := newFixture(t, true)
	before := snap(t, f.repo)
	_, err := newService(t).Accept(ctx(t), req(f, StrategyMerge), &recorder{fail: errStore})
	if !errors.Is(err, errStore) {
		t.Fatalf("err = %v", err)
	}
	before.same(t, f.repo)
	if read(t, filepath.Join(f.repo, "a.txt")) != "one\ntwo\nthree\n" {
		t.Fatal("checkout not put back")
	}
}

func TestAcceptBadInputChangesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	before := snap(t, f.repo)
	cases := []struct {
		name string
		edit func(*Request)
		want error
	}{
		{"bad strategy", func(r *Request) { r.Strategy = "octopus" }, ErrBadStrategy},
		{"option-like target", func(r *Request) { r.Target = "--force" }, ErrBadBranch},
		{"invalid target name", func(r *Request) { r.Target = "a..b" }, ErrBadBranch},
		{"missing target", func(r *Request) { r.Target = "nope" }, ErrNoTarget},
		{"missing task branch", func(r *Request) { r.TaskID = "T2" }, ErrNoTaskBranch},
		{"target is the task branch", func(r *Request) { r.Target = TaskBranch("T1") }, ErrSameBranch},
		{"task not done", func(r *Request) { r.Status = task.StatusPending }, task.ErrIllegalTransition},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := req(f, StrategyMerge)
			c.edit(&r)
			if _, err := newService(t).Accept(ctx(t), r, nil); !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
	before.same(t, f.repo)
}

func TestAcceptNothingToAccept(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	f.detach(t)
	sh(t, f.repo, "update-ref", "refs/heads/main", f.taskHead)
	_, err := newService(t).Accept(ctx(t), req(f, StrategyMerge), nil)
	if !errors.Is(err, ErrNothingToAccept) {
		t.Fatalf("err = %v", err)
	}
}

func TestAcceptRefusedWhileTargetIsBeingRebased(t *testing.T) {
	t.Parallel()
	f := newFixture(t, false)
	// The user rebases main onto a side branch in a linked worktree and
	// stops on a conflict: HEAD is detached there, main is "in use".
	side := filepath.Join(t.TempDir(), "side")
	sh(t, f.repo, "switch", "-q", "-c", "side", f.base)
	write(t, filepath.Join(f.repo, "b.txt"), "side b\n")
	commitAll(t, f.repo, "side: b")
	sh(t, f.repo, "switch", "-q", "--detach", "side")
	sh(t, f.repo, "worktree", "add", "-q", side, "main")
	write(t, filepath.Join(side, "b.txt"), "main b\n")
	commitAll(t, side, "main: b")
	if _, err := shErr(side, "rebase", "side"); err == nil {
		t.Fatal("fixture rebase did not stop")
	}
	before := snap(t, f.repo)
	_, err := newService(t).Accept(ctx(t), req(f, StrategyMerge), nil)
	if !errors.Is(err, ErrCheckedOut) || !strings.Contains(err.Error(), "being rebased in "+side) {
		t.Fatalf("err = %v", err)
	}
	before.same(t, f.repo)
}
