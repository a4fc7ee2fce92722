package review

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// helperEnv makes the re-run test binary a process that accepts or undoes
// (helperMain) and may be killed at a failpoint.
const helperEnv = "REVIEW_TEST_HELPER"

// helperMain runs one accept (or undo of the last accept) of the task in
// the store, as the CLI would, and exits 0, or 1 with the error.
func helperMain() int {
	ctx := context.Background()
	st, err := store.Open(ctx, os.Getenv("HELPER_DB"), store.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer st.Close()
	svc := New(gitx.New(), time.Now, WithJournal(NewJournal(os.Getenv("HELPER_JOURNAL"), os.Getenv("HELPER_SCOPE"))))
	rec := StoreRecorder{Store: st}
	tk, err := st.GetTask(ctx, os.Getenv("HELPER_TASK"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if os.Getenv(helperEnv) == "undo" {
		last, err := rec.LastAccept(ctx, tk.ID)
		if err == nil {
			err = svc.Undo(ctx, UndoRequest{Repo: tk.Repo, TaskID: tk.ID, Status: tk.Status, Record: last}, rec)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	_, err = svc.Accept(ctx, Request{Repo: tk.Repo, TaskID: tk.ID, Status: tk.Status, Target: "main", Strategy: StrategyMerge}, rec)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// crashEnv is a repository with main checked out in it, a done task whose
// branch changes and adds files, the task's store and the accept journal.
type crashEnv struct {
	repo, db, journal, scope string
	st                       *store.Store
	id                       string
	svc                      *Service
	rec                      StoreRecorder
	before                   string // main before any accept
}

func newCrashEnv(t *testing.T, extraFiles int) *crashEnv {
	t.Helper()
	e := &crashEnv{repo: newRepo(t), db: filepath.Join(t.TempDir(), "boof.db"), journal: filepath.Join(t.TempDir(), "journal"),
		scope: fmt.Sprintf("rt%d", time.Now().UnixNano())}
	st, err := store.Open(context.Background(), e.db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e.st, e.rec = st, StoreRecorder{Store: st}
	tk, err := st.CreateTask(context.Background(), task.NewTask{Prompt: "p", Repo: e.repo})
	if err != nil {
		t.Fatal(err)
	}
	e.id = tk.ID
	if _, err := st.Claim(context.Background(), tk.ID, store.ClaimInfo{Role: task.RolePlanner}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Transition(context.Background(), tk.ID, task.StatusDone, store.TransitionNote{}); err != nil {
		t.Fatal(err)
	}
	wt := taskWorktree(t, e.repo, e.id)
	write(t, filepath.Join(wt, "a.txt"), "ONE\ntwo\nthree\n")
	for i := 0; i < extraFiles; i++ {
		write(t, filepath.Join(wt, "slow", fmt.Sprintf("s%02d.txt", i)), fmt.Sprintf("slow %d\n", i))
	}
	commitAll(t, wt, "task work")
	write(t, filepath.Join(e.repo, "b.txt"), "bee moved\n")
	e.before = commitAll(t, e.repo, "main moves")
	e.svc = New(gitx.New(), func() time.Time { return fixedNow }, WithJournal(NewJournal(e.journal, e.scope)))
	t.Cleanup(func() { _, _ = proc.KillTagged(proc.TagPrefix(e.scope, ""), 100*time.Millisecond) })
	return e
}

// run starts the helper with failpoint rules (may be "") and returns it
// started; wait with done.
func (e *crashEnv) start(t *testing.T, op, rules string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+op, "HELPER_DB="+e.db, "HELPER_JOURNAL="+e.journal,
		"HELPER_SCOPE="+e.scope, "HELPER_TASK="+e.id, failpoint.EnvVar+"="+rules)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, &out
}

// crash runs the helper until the failpoint kills it.
func (e *crashEnv) crash(t *testing.T, op, point string) {
	t.Helper()
	cmd, out := e.start(t, op, point)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("helper was not killed at %s: %v\n%s", point, err, out)
	}
}

func (e *crashEnv) status(t *testing.T) task.Status {
	t.Helper()
	tk, err := e.st.GetTask(context.Background(), e.id)
	if err != nil {
		t.Fatal(err)
	}
	return tk.Status
}

// agree checks that status, ref and checkout tell one story: accepted with
// main at the accept's commit, or done with main where it was; the
// checkout clean at main. It returns whether the accept stands.
func (e *crashEnv) agree(t *testing.T) bool {
	t.Helper()
	main := rev(t, e.repo, "main")
	if head := sh(t, e.repo, "symbolic-ref", "HEAD"); head != "refs/heads/main" {
		t.Fatalf("HEAD is %s", head)
	}
	if st := sh(t, e.repo, "status", "--porcelain=v1"); st != "" {
		t.Fatalf("checkout does not match main %s:\n%s", main, st)
	}
	if p, _ := e.svc.journal.Pending(); len(p) != 0 {
		t.Fatalf("journal still holds %+v", p)
	}
	switch st := e.status(t); st {
	case task.StatusAccepted:
		last, err := e.rec.LastAccept(context.Background(), e.id)
		if err != nil || last.NewSHA != main || last.OldSHA != e.before {
			t.Fatalf("accepted, but the record %+v (%v) is not main %s", last, err, main)
		}
		return true
	case task.StatusDone:
		if main != e.before {
			t.Fatalf("status done but main moved to %s", main)
		}
		return false
	default:
		t.Fatalf("status %s", st)
	}
	return false
}

func (e *crashEnv) reconcile(t *testing.T) []Resolution {
	t.Helper()
	res, err := e.svc.Reconcile(context.Background(), e.rec)
	if err != nil {
		t.Fatalf("reconcile: %v", err)
	}
	for _, r := range res {
		t.Log(r.String())
	}
	return res
}

func TestAcceptCrashedAtEachStepIsReconciledAndUndoWorks(t *testing.T) {
	for _, c := range []struct {
		point    string
		accepted bool
	}{
		{"accept:intent", false}, {"accept:ref-moved", true}, {"accept:checkout-moved", true}, {"accept:recorded", true},
	} {
		t.Run(c.point, func(t *testing.T) {
			e := newCrashEnv(t, 0)
			e.crash(t, "accept", c.point)
			res := e.reconcile(t)
			if len(res) != 1 || res[0].Completed != c.accepted {
				t.Fatalf("resolutions %+v", res)
			}
			if got := e.agree(t); got != c.accepted {
				t.Fatalf("accept stands: %v, want %v", got, c.accepted)
			}
			if got := sh(t, e.repo, "show", "main:a.txt"); c.accepted && got != "ONE\ntwo\nthree" {
				t.Fatalf("a.txt on main: %q", got)
			}
			// The user can go on: undo the completed accept, or accept again.
			cmd, out := e.start(t, map[bool]string{true: "undo", false: "accept"}[c.accepted], "")
			if err := cmd.Wait(); err != nil {
				t.Fatalf("next step after reconcile: %v\n%s", err, out)
			}
			if got := e.agree(t); got == c.accepted {
				t.Fatalf("the next step changed nothing (accepted %v)", got)
			}
		})
	}
}

func TestUndoCrashedAtEachStepIsReconciled(t *testing.T) {
	for _, c := range []struct {
		point  string
		undone bool
	}{
		{"undo:intent", false}, {"undo:ref-moved", true}, {"undo:checkout-moved", true}, {"undo:recorded", true},
	} {
		t.Run(c.point, func(t *testing.T) {
			e := newCrashEnv(t, 0)
			cmd, out := e.start(t, "accept", "")
			if err := cmd.Wait(); err != nil {
				t.Fatalf("accept: %v\n%s", err, out)
			}
			e.crash(t, "undo", c.point)
			e.reconcile(t)
			if accepted := e.agree(t); accepted == c.undone {
				t.Fatalf("accept stands %v after an undo crashed at %s", accepted, c.point)
			}
		})
	}
}

func TestAcceptKilledMidCheckoutUpdateIsCompleted(t *testing.T) {
	e := newCrashEnv(t, 12)
	write(t, filepath.Join(e.repo, ".gitattributes"), "slow/*.txt filter=slow\n")
	e.before = commitAll(t, e.repo, "slow filter")
	sh(t, e.repo, "config", "filter.slow.smudge", "sleep 0.2; cat")
	sh(t, e.repo, "config", "filter.slow.clean", "cat")
	cmd, out := e.start(t, "accept", "")
	// Kill the accept while its read-tree writes the checkout: the read-tree
	// goes on as an orphan until reconciliation ends it.
	deadline := time.Now().Add(60 * time.Second)
	for {
		ps, _ := proc.FindTagged(proc.TagPrefix(e.scope, proc.OwnerAccept))
		busy := false
		for _, p := range ps {
			busy = busy || strings.Contains(p.Command, "read-tree")
		}
		files, _ := filepath.Glob(filepath.Join(e.repo, "slow", "*.txt"))
		if busy && len(files) >= 2 {
			break
		}
		if time.Now().After(deadline) || cmd.ProcessState != nil {
			t.Fatalf("the checkout update never ran\n%s", out)
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	files, _ := filepath.Glob(filepath.Join(e.repo, "slow", "*.txt"))
	if len(files) >= 12 {
		t.Fatalf("the update finished before the kill (%d files)", len(files))
	}
	res := e.reconcile(t)
	if len(res) != 1 || !res[0].Completed {
		t.Fatalf("resolutions %+v", res)
	}
	if left, _ := proc.FindTagged(proc.TagPrefix(e.scope, proc.OwnerAccept)); len(left) > 0 {
		t.Fatalf("orphaned git left running: %+v", left)
	}
	if !e.agree(t) {
		t.Fatal("the accept whose ref moved was not completed")
	}
	files, _ = filepath.Glob(filepath.Join(e.repo, "slow", "*.txt"))
	if len(files) != 12 {
		t.Fatalf("checkout holds %d of 12 files", len(files))
	}
}

func TestChangeMadeAfterTheCrashIsKeptAndTheAcceptRolledBack(t *testing.T) {
	e := newCrashEnv(t, 0)
	e.crash(t, "accept", "accept:ref-moved")
	// The user sees the checkout behind main and edits a file the accept
	// changes.
	write(t, filepath.Join(e.repo, "a.txt"), "the user's own edit\n")
	res := e.reconcile(t)
	if len(res) != 1 || res[0].Completed || !strings.Contains(res[0].Detail, "a.txt") {
		t.Fatalf("resolutions %+v", res)
	}
	if got := read(t, filepath.Join(e.repo, "a.txt")); got != "the user's own edit\n" {
		t.Fatalf("the user's edit is gone: %q", got)
	}
	if main := rev(t, e.repo, "main"); main != e.before || e.status(t) != task.StatusDone {
		t.Fatalf("main %s (want %s), status %s", main, e.before, e.status(t))
	}
	if st := sh(t, e.repo, "status", "--porcelain=v1"); st != "M a.txt" {
		t.Fatalf("status:\n%s", st)
	}
	if p, _ := e.svc.journal.Pending(); len(p) != 0 {
		t.Fatalf("journal still holds %+v", p)
	}
}

func TestMoveRefIsACompareAndSwap(t *testing.T) {
	e := newCrashEnv(t, 0)
	f := rev(t, e.repo, "refs/heads/"+TaskBranch(e.id))
	err := e.svc.MoveRef(context.Background(), RefMove{Op: OpAccept, TaskID: e.id, Repo: e.repo, Ref: "main",
		Old: f, New: f, Record: AcceptRecord{Target: "refs/heads/main", OldSHA: f, NewSHA: f}}, e.rec)
	var me *MovedError
	if !errors.As(err, &me) || me.Actual != e.before {
		t.Fatalf("a move from a stale old value: %v", err)
	}
	if rev(t, e.repo, "main") != e.before || e.status(t) != task.StatusDone {
		t.Fatal("a refused move changed something")
	}
}

func TestNoJournalNoMove(t *testing.T) {
	f := newFixture(t, false)
	s := New(gitx.New(), nil)
	if _, err := s.Accept(ctx(t), req(f, StrategyMerge), nil); !errors.Is(err, ErrNoJournal) {
		t.Fatalf("accept without a journal: %v", err)
	}
}
