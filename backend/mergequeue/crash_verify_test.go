package mergequeue

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/task"
)

// running reports whether pid is a live process (not gone, not a zombie).
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// A queue pass killed (kill -9) while the verify command runs on the
// merged result: the command, deaf to its terminal's hangup, survives,
// tagged with the entry's step; the restart ends it, re-checks the entry
// from git (it had not landed: built and verified again, its temporary
// worktree removed) and lands it exactly once.
func TestKilledWhileVerifyingTheRestartEndsItAndLandsOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tk := f.doneTask("Verify slowly", map[string]string{"s.txt": "s\n"})
	f.add(tk.ID)
	marker := filepath.Join(t.TempDir(), "verify-pid")
	cmdLine := `trap '' HUP; if [ -f ` + marker + ` ]; then ./check.sh; else echo $$ > ` + marker + `; sleep 300; fi`
	scope := fmt.Sprintf("mq%d", time.Now().UnixNano())
	t.Cleanup(func() { _, _ = proc.KillTagged(proc.TagPrefix(scope, ""), 100*time.Millisecond) })
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=1", "MQ_DB="+f.db, "MQ_JOURNAL="+f.journal, "MQ_WORK="+f.work,
		"MQ_VERIFY="+cmdLine, "MQ_SCOPE="+scope, failpoint.EnvVar+"=")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	var pid int
	for pid == 0 {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatal("the verify command never started")
		}
		if b, err := os.ReadFile(marker); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	f.open()
	e := f.entry(tk.ID)
	if e.State != task.QueueLanding || e.Verified || e.Built == "" {
		t.Fatalf("entry after the kill %+v", e)
	}
	if got := f.subjects(); got != "init" {
		t.Fatalf("main moved before its verify passed:\n%s", got)
	}
	if !running(pid) {
		t.Fatal("the verify command died with the queue; the test shows nothing")
	}
	left, err := proc.FindTagged(proc.StepTag(scope, proc.OwnerRun, tk.ID, fmt.Sprintf("queue-%d", e.ID)))
	if err != nil || len(left) == 0 {
		t.Fatalf("the surviving verify command carries no step tag: %+v %v", left, err)
	}

	// The restart, as the runner host does it: end the tagged survivors,
	// reconcile journaled moves, then run the queue.
	if _, err := proc.KillTagged(proc.TagPrefix(scope, proc.OwnerRun), 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if running(pid) {
		t.Fatalf("verify command %d survived the restart", pid)
	}
	if _, err := f.q.Review.Reconcile(context.Background(), review.StoreRecorder{Store: f.st}); err != nil {
		t.Fatal(err)
	}
	f.set.Verify.Command = cmdLine // passes now that the marker exists
	f.q.Scope = scope
	f.pass()
	e = f.entry(tk.ID)
	if e.State != task.QueueLanded || !e.Verified || e.Attempts != 2 {
		t.Fatalf("entry after the restart %+v", e)
	}
	if got := f.subjects(); got != "Merge boof-runner/"+tk.ID+": Verify slowly\ninit" {
		t.Fatalf("main's history:\n%s", got)
	}
	if got := f.get(tk.ID); got.Status != task.StatusAccepted {
		t.Fatalf("task %s", got.Status)
	}
	if wts := sh(t, f.repo, "worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 1 {
		t.Fatalf("worktrees left:\n%s", wts)
	}
	if _, err := os.Stat(f.q.entryDir(e.ID)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("temporary worktree left: %v", err)
	}
	if left, _ := proc.FindTagged(proc.TagPrefix(scope, "")); len(left) > 0 {
		t.Fatalf("tagged survivors: %+v", left)
	}
}
