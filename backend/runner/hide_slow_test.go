//go:build slow

package runner_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// The runner process's two ways of tracking a step's processes: cgroups
// (where the machine lets it) and the fallback, forced through
// proc.NoCgroupEnv.
var treeMechanisms = []struct {
	name string
	env  []string
}{{"cgroup", nil}, {"fallback", []string{proc.NoCgroupEnv + "=1"}}}

var mechanismLine = regexp.MustCompile(`process trees: (.*)`)

// lockedOutput is a runner process's output, read while it runs.
type lockedOutput struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedOutput) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedOutput) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// spawnRunner starts a runner process on the data root with extra
// environment, its output readable while it runs.
func (r *root) spawnRunner(env []string, args ...string) (*exec.Cmd, *lockedOutput) {
	r.t.Helper()
	cmd := exec.Command(os.Args[0], append(append([]string{"runner"}, args...), "--data-dir", r.dir)...)
	cmd.Env = append(append(os.Environ(), cliEnv+"=1"), env...)
	out := &lockedOutput{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, out
}

// mechanismOf waits for the runner's start line and returns the mechanism
// it names; the cgroup case is skipped where cgroups are not usable.
func mechanismOf(t *testing.T, name string, out *lockedOutput) string {
	t.Helper()
	var m []string
	waitFor(t, "the runner's start line", func() bool {
		m = mechanismLine.FindStringSubmatch(out.String())
		return m != nil
	})
	t.Logf("process trees: %s", m[1])
	cg := strings.HasPrefix(m[1], "cgroup v2")
	if name == "cgroup" && !cg {
		t.Skipf("no usable cgroup v2 here: %s", m[1])
	}
	if name == "fallback" && cg {
		t.Fatalf("%s=1 given, the runner used %s", proc.NoCgroupEnv, m[1])
	}
	return m[1]
}

// hiddenOf returns the helper that hid among the mock's recorded
// processes: the one working in / (the others work in the worktree).
func hiddenOf(pids map[int]uint64) (int, bool) {
	for pid := range pids {
		if cwd, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd"); err == nil && cwd == "/" {
			return pid, true
		}
	}
	return 0, false
}

// TestAHelperThatHidesIsEnded: a developer step starts a helper that clears
// the step and process tags from its environment, leaves its session, is
// orphaned at once and moves to /, and a double-forked daemon. Nothing of
// the step survives a `stop` from the CLI, the runner's graceful exit
// (SIGTERM) or a kill -9 of the runner and a restart, with cgroups and
// without (after a kill -9 the fallback finds the helper once a refresh of
// the step's recorded pids has seen it: the documented limit).
func TestAHelperThatHidesIsEnded(t *testing.T) {
	for _, m := range treeMechanisms {
		for _, end := range []string{"stop", "quit", "kill-9"} {
			t.Run(m.name+"/"+end, func(t *testing.T) { hideTrial(t, m.name, m.env, end) })
		}
	}
}

func hideTrial(t *testing.T, mech string, env []string, end string) {
	r := newRoot(t, nil)
	r.sweepAtEnd()
	tk := r.add("Hide.\n[[mock-hostile developer=hide,daemon]]", 1)
	cmd, out := r.spawnRunner(env)
	mechanismOf(t, mech, out)
	var pids map[int]uint64
	hidden := 0
	waitFor(t, "the hostile tree", func() bool {
		pids = hostilePids(t, r.dir)
		var ok bool
		hidden, ok = hiddenOf(pids)
		return ok && len(pids) >= 3
	})
	t.Logf("the mock's processes %v; the hidden helper %d", pids, hidden)
	switch end {
	case "stop":
		if res := r.cli(context.Background(), "stop", tk.ID); res.code != 0 {
			t.Fatalf("stop: %+v", res)
		}
		waitFor(t, "the task stopped", func() bool { return r.get(tk.ID).Status != task.StatusOngoing })
		if left := liveOf(pids); len(left) > 0 {
			t.Errorf("alive after the stop: %v (hidden helper %d)", left, hidden)
		}
		quit(t, cmd, out)
	case "quit":
		quit(t, cmd, out)
	case "kill-9":
		if mech == "fallback" {
			waitFor(t, "the hidden helper among the step's recorded pids", func() bool {
				x, ok := r.openExec(tk.ID, task.RoleDeveloper)
				return ok && contains(x.PIDs, hidden)
			})
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		if len(liveOf(pids)) == 0 {
			t.Fatal("nothing survived the kill -9: the test shows nothing")
		}
		re, reOut := r.spawnRunner(env, "--until-idle")
		if err := re.Wait(); err != nil {
			t.Fatalf("restart: %v\n%s", err, reOut)
		}
		if !regexp.MustCompile(`recovery: stopped [1-9]\d* surviving`).MatchString(reOut.String()) {
			t.Errorf("no survivors counted by the recovery:\n%s", reOut)
		}
	}
	if left := liveOf(pids); len(left) > 0 {
		t.Fatalf("survivors %v (hidden helper %d)\n%s", left, hidden, out)
	}
}

// quit ends the runner process as a logout would (SIGTERM) and waits.
func quit(t *testing.T, cmd *exec.Cmd, out *lockedOutput) {
	t.Helper()
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatalf("the runner did not quit\n%s", out)
	}
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
