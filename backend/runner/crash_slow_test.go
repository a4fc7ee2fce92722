//go:build slow

package runner_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// killedAt runs a runner that the failpoint kills and waits for its death.
func (r *root) killedAt(point string) {
	r.t.Helper()
	cmd, out := r.spawnEnv([]string{failpoint.EnvVar + "=" + point}, "--until-idle")
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		r.t.Fatalf("runner not killed at %s: %v\n%s", point, err, out)
	}
}

func (r *root) scope() string { return proc.Scope(r.dir) }

// sweepAtEnd ends, when the test ends (failed or not), every process of
// the data root that is still alive: in the cgroups of its dead runners
// and by its tags.
func (r *root) sweepAtEnd() {
	r.t.Cleanup(func() {
		_, _ = proc.KillStaleCgroups(r.scope(), 100e6)
		_, _ = proc.KillTagged(proc.TagPrefix(r.scope(), ""), 100e6)
	})
}

func (r *root) worktreeDir(id string) string {
	return filepath.Join(r.repo, worktree.DefaultRootName, id)
}

func TestKilledAfterTheDecisionTheRestartFinishesTheCleanUp(t *testing.T) {
	r := newRoot(t, nil)
	r.sweepAtEnd()
	tk := r.add("Finish me.", 1)
	r.killedAt("finish:decided")
	if got := r.get(tk.ID); got.Status != task.StatusOngoing || got.CompletedRuns != 1 {
		t.Fatalf("after the kill: %s, %d runs", got.Status, got.CompletedRuns)
	}
	res := r.cli(context.Background(), "runner", "--until-idle")
	if res.code != 0 {
		t.Fatalf("restart: %+v", res)
	}
	got := r.get(tk.ID)
	if got.Status != task.StatusDone || got.CompletedRuns != 1 || got.HeadSHA == "" {
		t.Fatalf("after the restart: %s %q, %d runs, head %q", got.Status, got.Error, got.CompletedRuns, got.HeadSHA)
	}
	log := r.logText(tk.ID)
	if strings.Contains(log, "Run 2 of 1") || !strings.Contains(log, "finishing the clean-up") {
		t.Fatalf("log:\n%s", log)
	}
	if _, err := os.Stat(r.worktreeDir(tk.ID)); !os.IsNotExist(err) {
		t.Fatalf("worktree not removed: %v", err)
	}
	if left := gitRun(t, r.repo, "rev-parse", "refs/heads/"+worktree.LeftoversBranchName(tk.ID)); left == "" {
		t.Fatal("no leftovers saved")
	}
	if !strings.Contains(res.stdout, "boof-runner runner: recovery:") || !strings.Contains(res.stdout, "finished the clean-up of 1 task") {
		t.Fatalf("recovery not on the runner's output:\n%s", res.stdout)
	}
}

var leftoversSaved = regexp.MustCompile(`leftovers saved on \S+ at ([0-9a-f]{40})`)

func TestKilledAfterTheLeftoversWereSavedTheyStay(t *testing.T) {
	r := newRoot(t, nil)
	r.sweepAtEnd()
	tk := r.add("Leave leftovers.", 1)
	r.killedAt("finish:leftovers-saved")
	m := leftoversSaved.FindStringSubmatch(r.logText(tk.ID))
	if m == nil {
		t.Fatalf("no leftovers saved before the kill:\n%s", r.logText(tk.ID))
	}
	if res := r.cli(context.Background(), "runner", "--until-idle"); res.code != 0 {
		t.Fatalf("restart: %+v", res)
	}
	if got := r.get(tk.ID); got.Status != task.StatusDone {
		t.Fatalf("after the restart: %s %q", got.Status, got.Error)
	}
	if left := gitRun(t, r.repo, "rev-parse", "refs/heads/"+worktree.LeftoversBranchName(tk.ID)); left != m[1] {
		t.Fatalf("leftovers branch at %s, saved at %s", left, m[1])
	}
	// Every leftovers commit ever made is reachable; no temporary directory leaked.
	for _, c := range leftoversCommits(t, r.repo) {
		if refs := gitRun(t, r.repo, "for-each-ref", "--contains", c, "--format=%(refname)"); refs == "" {
			t.Fatalf("leftovers commit %s is reachable from nothing", c)
		}
	}
	if _, err := os.Stat(r.worktreeDir(tk.ID)); !os.IsNotExist(err) {
		t.Fatalf("worktree not removed: %v", err)
	}
}

// leftoversCommits lists every commit object whose message starts
// "Leftovers of task".
func leftoversCommits(t *testing.T, repo string) []string {
	t.Helper()
	out := gitRun(t, repo, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)")
	var cs []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) == 2 && f[1] == "commit" && strings.HasPrefix(gitRun(t, repo, "log", "-1", "--format=%s", f[0]), "Leftovers of task") {
			cs = append(cs, f[0])
		}
	}
	return cs
}

// hostilePids reads the pids the mock's hostile behaviours recorded.
func hostilePids(t *testing.T, dataDir string) map[int]uint64 {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dataDir, "*-state", "*", mock.HostilePIDs))
	out := map[int]uint64{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			var pid int
			var st uint64
			if _, err := fmt.Sscan(sc.Text(), &pid, &st); err == nil {
				out[pid] = st
			}
		}
	}
	return out
}

// liveOf returns those of pids that still run with the recorded start.
func liveOf(pids map[int]uint64) []int {
	var out []int
	for pid, st := range pids {
		if got, ok := proc.StartTimes(pid)[pid]; ok && got == st {
			out = append(out, pid)
		}
	}
	return out
}

var stoppedN = regexp.MustCompile(`Recovery: stopped (\d+) surviving process\(es\) of the run the app left: (.*)`)

func TestRecoveryEndsEscapeesCountsThemAndNamesTheirStep(t *testing.T) {
	r := newRoot(t, nil)
	r.sweepAtEnd()
	tk := r.add("Escape.\n[[mock-hostile developer=setsid,daemon]]", 1)
	cmd, out := r.spawn()
	waitFor(t, "hostile tree", func() bool { return len(hostilePids(t, r.dir)) >= 3 })
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	// The count once it is settled: a daemon's intermediate process may
	// still be on its way out just after the kill.
	var before []proc.Tagged
	var err error
	for settled, last := 0, -1; settled < 3; {
		time.Sleep(150 * time.Millisecond)
		if before, err = proc.FindTagged(proc.TagPrefix(r.scope(), proc.OwnerRun)); err != nil {
			break
		}
		if len(before) == last {
			settled++
		} else {
			settled, last = 0, len(before)
		}
	}
	if err != nil || len(before) < 2 {
		t.Fatalf("survivors of the kill -9: %d %v\n%s", len(before), err, out)
	}
	res := r.cli(context.Background(), "runner", "--until-idle")
	if res.code != 0 {
		t.Fatalf("restart: %+v", res)
	}
	if left := liveOf(hostilePids(t, r.dir)); len(left) > 0 {
		t.Fatalf("escapees survived recovery: %v", left)
	}
	if left, _ := proc.FindTagged(proc.TagPrefix(r.scope(), proc.OwnerRun)); len(left) > 0 {
		t.Fatalf("tagged survivors: %+v", left)
	}
	log := r.logText(tk.ID)
	m := stoppedN.FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("no survivor count in the log:\n%s", log)
	}
	if n, _ := strconv.Atoi(m[1]); n != len(before) {
		t.Fatalf("log counts %d survivors, %d were alive:\n%s", n, len(before), log)
	}
	if !strings.HasPrefix(m[2], "developer (") || strings.Contains(m[2], "planner") {
		t.Fatalf("steps named: %s", m[2])
	}
	if !strings.Contains(res.stdout, fmt.Sprintf("recovery: stopped %d surviving process(es)", len(before))) {
		t.Fatalf("runner output:\n%s", res.stdout)
	}
	if got := r.get(tk.ID); got.Status != task.StatusStopped {
		t.Fatalf("status %s", got.Status)
	}
}

func TestRecoveryEndsTheGitOfAKilledProvisioningAndTheRetryRebuilds(t *testing.T) {
	r := newRoot(t, nil)
	r.sweepAtEnd()
	for i := 0; i < 30; i++ {
		os.MkdirAll(filepath.Join(r.repo, "big"), 0o755)
		os.WriteFile(filepath.Join(r.repo, "big", fmt.Sprintf("f%02d.txt", i)), []byte(fmt.Sprintf("f%d\n", i)), 0o644)
	}
	os.WriteFile(filepath.Join(r.repo, ".gitattributes"), []byte("big/*.txt filter=slow\n"), 0o644)
	gitRun(t, r.repo, "add", "-A")
	gitRun(t, r.repo, "-c", "user.name=T", "-c", "user.email=t@t", "commit", "-q", "-m", "big")
	gitRun(t, r.repo, "config", "filter.slow.smudge", "sleep 0.1; cat")
	gitRun(t, r.repo, "config", "filter.slow.clean", "cat")
	tk := r.add("Provision slowly.", 1)
	cmd, out := r.spawn()
	big := filepath.Join(r.worktreeDir(tk.ID), "big")
	waitFor(t, "the checkout half done", func() bool {
		files, _ := filepath.Glob(filepath.Join(big, "*.txt"))
		return len(files) >= 3
	})
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	gits, _ := proc.FindTagged(proc.TagPrefix(r.scope(), proc.OwnerRun))
	if len(gits) == 0 {
		t.Fatalf("no git survived the kill -9 (the test did not catch provisioning)\n%s", out)
	}
	res := r.cli(context.Background(), "runner", "--until-idle")
	if res.code != 0 {
		t.Fatalf("restart: %+v", res)
	}
	if left, _ := proc.FindTagged(proc.TagPrefix(r.scope(), proc.OwnerRun)); len(left) > 0 {
		t.Fatalf("git survived recovery: %+v", left)
	}
	log := r.logText(tk.ID)
	if !strings.Contains(log, "provision: git ") || strings.Contains(log, "closed the planner step") {
		t.Fatalf("recovery log:\n%s", log)
	}
	if got := r.get(tk.ID); got.Status != task.StatusStopped {
		t.Fatalf("status %s", got.Status)
	}
	if _, err := r.st.Retry(context.Background(), tk.ID); err != nil {
		t.Fatal(err)
	}
	if res := r.cli(context.Background(), "runner", "--until-idle"); res.code != 0 {
		t.Fatalf("retry run: %+v", res)
	}
	got := r.get(tk.ID)
	if got.Status != task.StatusDone {
		t.Fatalf("retry: %s %q\n%s", got.Status, got.Error, r.logText(tk.ID))
	}
	if !strings.Contains(r.logText(tk.ID), "did not finish provisioning") && !strings.Contains(r.logText(tk.ID), "provisioning of this worktree did not complete") {
		t.Fatalf("the half-built worktree was not rebuilt:\n%s", r.logText(tk.ID))
	}
	if diff := gitRun(t, r.repo, "diff", "--name-status", got.BaseSHA, "refs/heads/"+worktree.LeftoversBranchName(tk.ID)); strings.Contains(diff, "D\t") {
		t.Fatalf("leftovers record deletions:\n%s", diff)
	}
}

// The CLI's accept path reconciles first: an accept killed after it moved
// the target, then `undo-accept`, completes the accept (checkout, status)
// and undoes it, and the task's log says so.
func TestUndoAfterAKilledAcceptReconcilesFirst(t *testing.T) {
	r := newRoot(t, nil)
	r.sweepAtEnd()
	// The task names its repository, as `add --repo` does; the CLI's accept needs it.
	tk, err := r.st.CreateTask(context.Background(), task.NewTask{Prompt: "Accept me.", Runs: 1, Repo: r.repo})
	if err != nil {
		t.Fatal(err)
	}
	if res := r.cli(context.Background(), "runner", "--until-idle"); res.code != 0 || r.get(tk.ID).Status != task.StatusDone {
		t.Fatalf("run: %+v %s", res, r.get(tk.ID).Status)
	}
	gitRun(t, r.repo, "config", "user.name", "T")
	gitRun(t, r.repo, "config", "user.email", "t@t")
	before := gitRun(t, r.repo, "rev-parse", "main")
	cmd := exec.Command(os.Args[0], "accept", tk.ID, "--data-dir", r.dir)
	cmd.Dir = r.repo
	cmd.Env = append(os.Environ(), cliEnv+"=1", failpoint.EnvVar+"=accept:ref-moved")
	out, _ := cmd.CombinedOutput()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("accept not killed: %s", out)
	}
	// The state the issue describes: main moved, the checkout did not, the task is done.
	if gitRun(t, r.repo, "rev-parse", "main") == before || r.get(tk.ID).Status != task.StatusDone {
		t.Fatal("the kill did not leave the half-done accept")
	}
	res := r.cli(context.Background(), "undo-accept", tk.ID)
	if res.code != 0 {
		t.Fatalf("undo-accept: %+v", res)
	}
	if !strings.Contains(res.stderr, "Reconciled the interrupted accept") || !strings.Contains(r.logText(tk.ID), "Reconciled the interrupted accept into main") {
		t.Fatalf("no reconciliation reported:\nstderr %s\nlog %s", res.stderr, r.logText(tk.ID))
	}
	if got := gitRun(t, r.repo, "rev-parse", "main"); got != before || r.get(tk.ID).Status != task.StatusDone {
		t.Fatalf("after the undo main is %s (want %s), task %s", got, before, r.get(tk.ID).Status)
	}
	if st := gitRun(t, r.repo, "status", "--porcelain", "--untracked-files=no"); st != "" {
		t.Fatalf("checkout does not match main:\n%s", st)
	}
}
