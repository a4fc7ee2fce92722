package mergequeue

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func TestLandsThreeTasksInOrder(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := f.doneTask("Add alpha", map[string]string{"alpha.txt": "a\n"})
	b := f.doneTask("Add beta", map[string]string{"beta.txt": "b\n"})
	c := f.doneTask("Add gamma", map[string]string{"gamma.txt": "c\n"})
	f.add(b.ID, a.ID, c.ID)
	if n := f.pass(); n != 3 {
		t.Fatalf("pass handled %d entries", n)
	}
	want := "Merge boof-runner/" + c.ID + ": Add gamma\nMerge boof-runner/" + a.ID + ": Add alpha\nMerge boof-runner/" + b.ID + ": Add beta\ninit"
	if got := f.subjects(); got != want {
		t.Fatalf("main's history:\n%s\nwant\n%s", got, want)
	}
	for _, tk := range []task.Task{a, b, c} {
		e := f.entry(tk.ID)
		if e.State != task.QueueLanded || !e.Verified || e.Landed == "" || e.Attempts != 1 {
			t.Fatalf("entry %+v", e)
		}
		if got := f.get(tk.ID); got.Status != task.StatusAccepted {
			t.Fatalf("task %s is %s", tk.ID, got.Status)
		}
	}
	// The checked-out main moved along, clean; no temporary worktree is left.
	if st := sh(t, f.repo, "status", "--porcelain"); st != "" {
		t.Fatalf("checkout status %q", st)
	}
	for _, name := range []string{"alpha.txt", "beta.txt", "gamma.txt"} {
		if _, err := os.Stat(filepath.Join(f.repo, name)); err != nil {
			t.Errorf("%s not in the checkout: %v", name, err)
		}
	}
	if wts := sh(t, f.repo, "worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 1 {
		t.Fatalf("worktrees left:\n%s", wts)
	}
	evs, err := f.st.Events(context.Background(), a.ID, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var verified, landed bool
	for _, ev := range evs {
		switch d := ev.Data.(type) {
		case task.VerifyRun:
			verified = d.Where == "queue" && d.Outcome == task.VerifyPassed && strings.Contains(d.Tail, "check: green")
		case task.MergeQueued:
			landed = landed || d.Action == task.QueueLandedOn
		}
	}
	if !verified || !landed {
		t.Fatalf("events: verified %v landed %v", verified, landed)
	}
}

// A conflicting entry and a red one are parked; the others land.
func TestParksConflictAndRedWhileOthersLand(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ok1 := f.doneTask("First fine", map[string]string{"one.txt": "1\n"})
	clash := f.doneTask("Clashing edit", map[string]string{"README.md": "one\nTASK\nthree\n"})
	red := f.doneTask("Red work", map[string]string{"RED": "x\n", "red.txt": "r\n"})
	ok2 := f.doneTask("Second fine", map[string]string{"two.txt": "2\n"})
	write(t, filepath.Join(f.repo, "README.md"), "one\nMAIN\nthree\n")
	sh(t, f.repo, "commit", "-qam", "main edits README")
	f.add(ok1.ID, clash.ID, red.ID, ok2.ID)
	if n := f.pass(); n != 4 {
		t.Fatalf("pass handled %d", n)
	}
	if got := f.subjects(); got != "Merge boof-runner/"+ok2.ID+": Second fine\nMerge boof-runner/"+ok1.ID+": First fine\nmain edits README\ninit" {
		t.Fatalf("main's history:\n%s", got)
	}
	ce := f.entry(clash.ID)
	if ce.State != task.QueueBlocked || ce.Reason != "conflicts with main in 1 file(s)" || strings.Join(ce.Files, ",") != "README.md" {
		t.Fatalf("conflicting entry %+v", ce)
	}
	re := f.entry(red.ID)
	if re.State != task.QueueBlocked || re.Reason != "verification failed: ./check.sh exited 1" || !strings.Contains(re.Output, "FAIL: the RED marker is there") || re.Verified {
		t.Fatalf("red entry %+v", re)
	}
	for _, tk := range []task.Task{clash, red} {
		if got := f.get(tk.ID); got.Status != task.StatusDone {
			t.Fatalf("parked task %s is %s", tk.ID, got.Status)
		}
	}
	// Nothing more to do until the user acts.
	if n := f.pass(); n != 0 {
		t.Fatalf("second pass handled %d", n)
	}
}

// A dirty checkout of the target is never touched: the entry waits, and
// lands once the checkout is clean.
func TestDirtyCheckoutWaitsAndIsNeverTouched(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tk := f.doneTask("Edit readme", map[string]string{"README.md": "one\ntwo\nthree\nfour\n"})
	write(t, filepath.Join(f.repo, "README.md"), "local edit\n")
	before := sh(t, f.repo, "rev-parse", "main")
	f.add(tk.ID)
	if n := f.pass(); n != 0 {
		t.Fatalf("pass handled %d", n)
	}
	e := f.entry(tk.ID)
	if e.State != task.QueueQueued || !strings.HasPrefix(e.Reason, "waiting: the checkout "+f.repo+" of main has uncommitted changes in README.md") {
		t.Fatalf("entry %+v", e)
	}
	if b, _ := os.ReadFile(filepath.Join(f.repo, "README.md")); string(b) != "local edit\n" || sh(t, f.repo, "rev-parse", "main") != before {
		t.Fatalf("the dirty checkout was touched: %q", b)
	}
	sh(t, f.repo, "checkout", "--", "README.md")
	if n := f.pass(); n != 1 {
		t.Fatalf("pass after clean-up handled %d", n)
	}
	if e := f.entry(tk.ID); e.State != task.QueueLanded {
		t.Fatalf("entry %+v", e)
	}
}

// A task branch deleted or a target that vanished parks the entry with a
// clear reason; nothing is applied.
func TestGoneBranchesPark(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	gone := f.doneTask("Branch deleted", map[string]string{"g.txt": "g\n"})
	other := f.doneTask("Target vanished", map[string]string{"o.txt": "o\n"})
	sh(t, f.repo, "branch", "release", "main")
	f.add(gone.ID)
	if _, err := f.q.Add(context.Background(), []string{other.ID}, "release", "squash"); err != nil {
		t.Fatal(err)
	}
	sh(t, f.repo, "branch", "-D", review.TaskBranch(gone.ID))
	sh(t, f.repo, "branch", "-D", "release")
	before := sh(t, f.repo, "for-each-ref")
	f.pass()
	if e := f.entry(gone.ID); e.State != task.QueueBlocked || e.Reason != "the task branch boof-runner/"+gone.ID+" was deleted" {
		t.Fatalf("entry %+v", e)
	}
	if e := f.entry(other.ID); e.State != task.QueueBlocked || e.Reason != "the target branch release no longer exists" || e.Strategy != "squash" {
		t.Fatalf("entry %+v", e)
	}
	if after := sh(t, f.repo, "for-each-ref"); after != before {
		t.Fatalf("refs changed:\n%s\n%s", before, after)
	}
}

// Bad input to Add changes nothing.
func TestAddRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tk := f.doneTask("Fine", map[string]string{"f.txt": "f\n"})
	pending, err := f.st.CreateTask(context.Background(), task.NewTask{Prompt: "not yet", Repo: f.repo})
	if err != nil {
		t.Fatal(err)
	}
	var se *store.StatusError
	if _, err := f.q.Add(context.Background(), []string{tk.ID, pending.ID}, "", ""); !errors.As(err, &se) {
		t.Fatalf("a pending task: %v", err)
	}
	if _, err := f.q.Add(context.Background(), []string{tk.ID}, "", "octopus"); !errors.Is(err, review.ErrBadStrategy) {
		t.Fatalf("bad strategy: %v", err)
	}
	if _, err := f.q.Add(context.Background(), []string{tk.ID}, "bad..name", ""); !errors.Is(err, review.ErrBadBranch) {
		t.Fatalf("bad branch: %v", err)
	}
	if es, _ := f.st.QueueEntries(context.Background(), true); len(es) != 0 {
		t.Fatalf("entries added: %+v", es)
	}
	f.add(tk.ID)
	if _, err := f.q.Add(context.Background(), []string{tk.ID}, "", ""); !errors.Is(err, store.ErrQueued) {
		t.Fatalf("queued twice: %v", err)
	}
}

// A red entry goes back to the developer through a change request; when
// the task is done again its entry is queued again and lands.
func TestSendBackThenLand(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	red := f.doneTask("Red work", map[string]string{"RED": "x\n", "w.txt": "w\n"})
	f.add(red.ID)
	f.pass()
	if _, err := f.q.SendBack(context.Background(), red.ID); err != nil {
		t.Fatal(err)
	}
	if got := f.get(red.ID); got.Status != task.StatusPending {
		t.Fatalf("task %s", got.Status)
	}
	secs, err := f.st.Sections(context.Background(), red.ID)
	if err != nil {
		t.Fatal(err)
	}
	var hr string
	for _, s := range secs {
		if s.Kind == task.SectionHumanReview {
			hr = s.Body
		}
	}
	if !strings.Contains(hr, "Merge `main` into your branch") || !strings.Contains(hr, "verification failed: ./check.sh exited 1") ||
		!strings.Contains(hr, "FAIL: the RED marker is there") {
		t.Fatalf("human review:\n%s", hr)
	}
	if e := f.entry(red.ID); e.State != task.QueueReturned {
		t.Fatalf("entry %+v", e)
	}
	if _, err := f.q.SendBack(context.Background(), red.ID); !errors.Is(err, ErrNotBlocked) {
		t.Fatalf("second send back: %v", err)
	}
	// The developer's fix run: RED removed on the task branch, done again.
	wt := filepath.Join(t.TempDir(), "fix")
	sh(t, f.repo, "worktree", "add", "-q", wt, review.TaskBranch(red.ID))
	sh(t, wt, "rm", "-q", "RED")
	sh(t, wt, "commit", "-qm", "remove the marker")
	sh(t, f.repo, "worktree", "remove", "--force", wt)
	f.finish(red.ID)
	if n := f.pass(); n != 1 {
		t.Fatalf("pass handled %d", n)
	}
	if e := f.entry(red.ID); e.State != task.QueueLanded {
		t.Fatalf("entry %+v", e)
	}
}

// A kill -9 between the verify and the ref move, and one after the move
// before the entry was marked: the next start re-checks from git and the
// task lands exactly once.
func TestSurvivesKillAroundTheMove(t *testing.T) {
	t.Parallel()
	for _, point := range []string{FailVerified, "accept:recorded"} {
		t.Run(point, func(t *testing.T) {
			f := newFixture(t)
			tk := f.doneTask("Crash me", map[string]string{"c.txt": "c\n"})
			f.add(tk.ID)
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), helperEnv+"=1", "MQ_DB="+f.db, "MQ_JOURNAL="+f.journal, "MQ_WORK="+f.work,
				failpoint.EnvVar+"="+point)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ProcessState.String() != "signal: killed" {
				t.Fatalf("the helper was not killed: %v\n%s", err, out)
			}
			f.open()
			if e := f.entry(tk.ID); e.State != task.QueueLanding || !e.Verified {
				t.Fatalf("entry after the kill %+v", e)
			}
			// What the runner host does at start: reconcile journaled moves.
			if _, err := f.q.Review.Reconcile(context.Background(), review.StoreRecorder{Store: f.st}); err != nil {
				t.Fatal(err)
			}
			f.pass()
			e := f.entry(tk.ID)
			if e.State != task.QueueLanded {
				t.Fatalf("entry %+v", e)
			}
			if got := f.subjects(); got != "Merge boof-runner/"+tk.ID+": Crash me\ninit" {
				t.Fatalf("main's history:\n%s", got)
			}
			if got := f.get(tk.ID); got.Status != task.StatusAccepted {
				t.Fatalf("task %s", got.Status)
			}
			if st := sh(t, f.repo, "status", "--porcelain"); st != "" {
				t.Fatalf("checkout %q", st)
			}
			if wts := sh(t, f.repo, "worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 1 {
				t.Fatalf("worktrees left:\n%s", wts)
			}
		})
	}
}

// Pausing the runner pauses the queue; resuming lands the entry.
func TestPausedRunnerPausesTheQueue(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tk := f.doneTask("Paused", map[string]string{"p.txt": "p\n"})
	f.add(tk.ID)
	f.set.Runner.Enabled = false
	if n := f.pass(); n != 0 || f.entry(tk.ID).State != task.QueueQueued {
		t.Fatalf("paused pass handled %d: %+v", n, f.entry(tk.ID))
	}
	f.set.Runner.Enabled = true
	if n := f.pass(); n != 1 || f.entry(tk.ID).State != task.QueueLanded {
		t.Fatalf("resumed pass handled %d: %+v", n, f.entry(tk.ID))
	}
}

// A pass cut short mid-verify (the app exiting) puts the entry back in the
// queue, leaves no process or worktree, and the next pass lands it.
func TestInterruptedPassRequeues(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tk := f.doneTask("Interrupted", map[string]string{"i.txt": "i\n"})
	f.add(tk.ID)
	f.set.Verify.Command = "echo $$ > " + filepath.Join(f.work, "pid") + "; sleep 300"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := f.q.Pass(ctx); done <- err }()
	pidFile := filepath.Join(f.work, "pid")
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the verify command never started")
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("pass: %v", err)
	}
	if e := f.entry(tk.ID); e.State != task.QueueQueued || !strings.HasPrefix(e.Reason, "interrupted") {
		t.Fatalf("entry %+v", e)
	}
	if wts := sh(t, f.repo, "worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 1 {
		t.Fatalf("worktrees left:\n%s", wts)
	}
	f.set.Verify.Command = "./check.sh"
	if n := f.pass(); n != 1 || f.entry(tk.ID).State != task.QueueLanded {
		t.Fatalf("next pass %d: %+v", n, f.entry(tk.ID))
	}
}

// Reorder and remove: the queue lands in the order the user set, a
// removed entry never lands, and one removed while it lands is dropped
// before its target moves.
func TestMoveAndRemove(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := f.doneTask("A", map[string]string{"a.txt": "a\n"})
	b := f.doneTask("B", map[string]string{"b.txt": "b\n"})
	c := f.doneTask("C", map[string]string{"c.txt": "c\n"})
	f.add(a.ID, b.ID, c.ID)
	es, err := f.q.Move(context.Background(), c.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := es[0].TaskID + es[1].TaskID + es[2].TaskID; got != c.ID+a.ID+b.ID {
		t.Fatalf("order after move: %v", es)
	}
	if removed, err := f.q.Remove(context.Background(), a.ID); err != nil || !removed {
		t.Fatalf("remove: %v %v", removed, err)
	}
	if _, err := f.q.Remove(context.Background(), a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("remove twice: %v", err)
	}
	// b is removed while it lands: the user's removal arrives as its
	// verify command starts.
	removeDuring := func() {
		if e, err := f.st.ActiveQueueEntry(context.Background(), b.ID); err == nil && e.State == task.QueueLanding {
			if _, err := f.q.Remove(context.Background(), b.ID); err != nil {
				t.Error(err)
			}
		}
	}
	f.q.Verify.Environ = func() []string { removeDuring(); return os.Environ() }
	f.pass()
	if got := f.subjects(); got != "Merge boof-runner/"+c.ID+": C\ninit" {
		t.Fatalf("main's history:\n%s", got)
	}
	if es, _ := f.st.QueueEntries(context.Background(), true); len(es) != 1 || es[0].TaskID != c.ID {
		t.Fatalf("entries %+v", es)
	}
	if got := f.get(b.ID); got.Status != task.StatusDone {
		t.Fatalf("removed task %s", got.Status)
	}
}

// A landed entry is undone with the task's accept (the journaled undo);
// the queue marks it undone and it may be queued again.
func TestUndoALandedEntry(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tk := f.doneTask("Undo me", map[string]string{"u.txt": "u\n"})
	before := sh(t, f.repo, "rev-parse", "main")
	f.add(tk.ID)
	f.pass()
	rec := review.StoreRecorder{Store: f.st}
	last, err := rec.LastAccept(context.Background(), tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.q.Review.Undo(context.Background(), review.UndoRequest{Repo: f.repo, TaskID: tk.ID, Status: task.StatusAccepted, Record: last}, rec); err != nil {
		t.Fatal(err)
	}
	f.pass()
	if e := f.entry(tk.ID); e.State != task.QueueUndone {
		t.Fatalf("entry %+v", e)
	}
	if got := sh(t, f.repo, "rev-parse", "main"); got != before {
		t.Fatalf("main %s, want %s", got, before)
	}
	f.add(tk.ID)
	if n := f.pass(); n != 1 || f.entry(tk.ID).State != task.QueueLanded {
		t.Fatalf("landed again: %d %+v", n, f.entry(tk.ID))
	}
}
