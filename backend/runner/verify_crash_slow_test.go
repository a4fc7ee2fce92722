//go:build slow

package runner_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// A runner killed (kill -9) while the task's verify command runs: the
// command's process tree outlives it; the restart ends it (tagged with the
// verify step), closes the open execution, keeps the developer's work, and
// the task is taken up again and finishes with a passing verify — or, if
// not resumed, is marked with a clear message. Nothing is lost.
func TestKilledWhileTheVerifyCommandRunsTheRestartRecovers(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "verify-pid")
	// The first run records its shell's pid, leaves a scratch file and hangs,
	// deaf to the hangup its terminal sends when the runner dies (as a
	// daemon would be); every later run passes.
	cmdLine := `trap '' HUP; if [ -f ` + marker + ` ]; then echo 'check: green'; else echo $$ > ` + marker + `; echo scratch > verify-scratch.txt; sleep 300; fi`
	r := newRoot(t, map[string]any{"verify": map[string]any{"command": cmdLine}})
	r.sweepAtEnd()
	tk := r.add("Verify me.", 1)
	cmd, out := r.spawn("--until-idle")
	waitFor(t, "the verify command to hang", func() bool {
		_, open := r.openExec(tk.ID, task.RoleVerify)
		b, err := os.ReadFile(marker)
		return open && err == nil && strings.TrimSpace(string(b)) != ""
	})
	b, _ := os.ReadFile(marker)
	verifyPid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	before := r.get(tk.ID)
	branch := "refs/heads/boof-runner/" + tk.ID
	head := gitRun(t, r.worktreeDir(tk.ID), "rev-parse", "HEAD")
	if got := gitRun(t, r.repo, "rev-parse", branch); got != head {
		t.Fatalf("worktree at %s, branch at %s", head, got)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if !alive(verifyPid) {
		t.Fatalf("the verify command died with its runner; the test shows nothing\n%s", out)
	}
	tagged, err := proc.FindTagged(proc.TagPrefix(r.scope(), proc.OwnerRun))
	if err != nil || len(tagged) == 0 {
		t.Fatalf("the verify command's processes carry no step tag: %+v %v", tagged, err)
	}
	for _, p := range tagged {
		if p.TaskID() != tk.ID || !strings.HasPrefix(p.Step(), "verify") {
			t.Fatalf("survivor tagged %q", p.Tag)
		}
	}

	res := r.cli(context.Background(), "runner", "--until-idle")
	if res.code != 0 {
		t.Fatalf("restart: %+v", res)
	}
	if alive(verifyPid) {
		t.Fatalf("the verify command %d survived the restart", verifyPid)
	}
	if left, _ := proc.FindTagged(proc.TagPrefix(r.scope(), proc.OwnerRun)); len(left) > 0 {
		t.Fatalf("tagged survivors: %+v", left)
	}
	xs, err := r.st.OpenExecutions(context.Background())
	if err != nil || len(xs) != 0 {
		t.Fatalf("open executions after the restart: %+v %v", xs, err)
	}
	got := r.get(tk.ID)
	log := r.logText(tk.ID)
	// The developer's work is never lost: the task branch still holds the
	// commit it had when the runner died.
	if err := isAncestor(r.repo, "merge-base", "--is-ancestor", head, branch); err != nil {
		t.Fatalf("the task branch lost the developer's commit %s: %v", head, err)
	}
	// The interrupted step is named on the task, which waits for the user.
	if got.Status != task.StatusStopped || !strings.Contains(got.Error, "interrupted") {
		t.Fatalf("after the restart the task is %s %q:\n%s", got.Status, got.Error, log)
	}
	// A retry resumes at the verify step, which passes now; the task ends
	// done with the developer's work and without the killed run's scratch.
	if res := r.cli(context.Background(), "retry", tk.ID); res.code != 0 {
		t.Fatalf("retry: %+v", res)
	}
	if res := r.cli(context.Background(), "runner", "--until-idle"); res.code != 0 {
		t.Fatalf("runner after the retry: %+v", res)
	}
	got = r.get(tk.ID)
	log = r.logText(tk.ID)
	if got.Status != task.StatusDone {
		t.Fatalf("after the retry the task is %s %q:\n%s", got.Status, got.Error, log)
	}
	if err := isAncestor(r.repo, "merge-base", "--is-ancestor", head, branch); err != nil {
		t.Fatalf("the retry lost the developer's commit %s: %v", head, err)
	}
	passed := false
	evs, _ := r.st.Events(context.Background(), tk.ID, before.CreatedAt)
	for _, ev := range evs {
		if v, ok := ev.Data.(task.VerifyRun); ok && v.Outcome == task.VerifyPassed {
			passed = true
		}
	}
	if !passed {
		t.Fatalf("done without a passing verify:\n%s", log)
	}
	if files := gitRun(t, r.repo, "ls-tree", "-r", "--name-only", branch); strings.Contains(files, "verify-scratch.txt") {
		t.Errorf("the killed verify's scratch file was committed as the task's work:\n%s", files)
	}
	t.Logf("after the retry: %s %q", got.Status, got.Error)
	if !strings.Contains(res.stdout, "recovery:") {
		t.Fatalf("recovery not on the runner's output:\n%s", res.stdout)
	}
}

// isAncestor runs git with args in dir; nil when it exits 0.
func isAncestor(dir string, args ...string) error {
	return exec.Command("git", append([]string{"-C", dir}, args...)...).Run()
}
