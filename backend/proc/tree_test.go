//go:build linux

package proc

import (
	"errors"
	"fmt"
	"golang.org/x/sys/unix"
	"strings"
	"testing"
	"time"
)

// hostile describes one hostile process tree.
type hostile struct {
	name  string
	spec  func(t *testing.T, mark string) Spec
	ready []string
	// min is the least number of tree processes expected once ready.
	min int
}

func hostileTrees() []hostile {
	return []hostile{
		{"ignores-sigterm", func(t *testing.T, m string) Spec { return helperSpec(t, m, "ignore-term") }, []string{"ready"}, 1},
		{"setsid-escapee", func(t *testing.T, m string) Spec { return helperSpec(t, m, "escapee") }, []string{"ready", "escapee-ready"}, 2},
		{"double-forked-daemon", func(t *testing.T, m string) Spec { return helperSpec(t, m, "daemon") }, []string{"ready", "leaf-ready"}, 2},
		{"fork-storm-30", func(t *testing.T, m string) Spec { return stormSpec(t, m, 30) }, []string{"ready"}, 31},
		{"closes-pty-early", func(t *testing.T, m string) Spec {
			return shSpec(t, m, `trap '' TERM; sleep 1000 </dev/null >/dev/null 2>&1 & echo ready; exec >/dev/null 2>&1 </dev/null; wait; sleep 1000`)
		}, []string{"ready"}, 2},
	}
}

// stormSpec forks n sleepers in the child's group, some ignoring SIGTERM.
func stormSpec(t *testing.T, mark string, n int) Spec {
	return shSpec(t, mark, fmt.Sprintf(`i=0; while [ $i -lt %d ]; do if [ $((i %% 10)) = 0 ]; then (trap '' TERM; exec sleep 1000) & else sleep 1000 & fi; i=$((i+1)); done; echo ready; wait`, n))
}

// TestStopHostileTrees stops each hostile tree and checks /proc for survivors.
func TestStopHostileTrees(t *testing.T) {
	testStopTrees(t, hostileTrees())
}

func testStopTrees(t *testing.T, trees []hostile) {
	for _, m := range mechanisms() {
		for _, tc := range trees {
			t.Run(m.name+"/"+tc.name, func(t *testing.T) { stopTree(t, newRunnerWith(t, m), tc) })
		}
	}
}

func stopTree(t *testing.T, r *Runner, tc hostile) {
	mark := newMark(t)
	s := tc.spec(t, mark)
	s.Grace = 300 * time.Millisecond
	x := start(t, r, s)
	x.waitFor(t, tc.ready...)
	pids := x.h.Pids()
	if len(pids) < tc.min {
		t.Fatalf("tree has %d processes %v, want >= %d", len(pids), pids, tc.min)
	}
	waitMarked(t, mark, tc.min)
	stopAt := time.Now()
	x.h.Stop(ReasonStopped)
	res := wait(t, x.h)
	t.Logf("%d processes stopped in %s (grace %s)", len(pids), time.Since(stopAt), s.Grace)
	if res.Reason != ReasonStopped || !errors.Is(res.Err(), ErrStopped) {
		t.Fatalf("result %+v err %v", res, res.Err())
	}
	assertGone(t, mark, pids)
	if r.Live() != 0 {
		t.Fatalf("runner still has %d live handles", r.Live())
	}
}

// TestShutdownStopsAll runs every hostile tree at once and shuts the runner
// down, as the app does on quit.
func TestShutdownStopsAll(t *testing.T) {
	for _, m := range mechanisms() {
		t.Run(m.name, func(t *testing.T) { shutdownStopsAll(t, m) })
	}
}

func shutdownStopsAll(t *testing.T, m mechanism) {
	r := newRunnerWith(t, m)
	mark := newMark(t)
	var runs []*run
	var pids []int
	for _, tc := range hostileTrees() {
		s := tc.spec(t, mark)
		s.Grace = time.Hour // Shutdown's own grace must win.
		x := start(t, r, s)
		x.waitFor(t, tc.ready...)
		pids = append(pids, x.h.Pids()...)
		runs = append(runs, x)
	}
	r.Shutdown(300 * time.Millisecond)
	for _, x := range runs {
		select {
		case <-x.h.Done():
		default:
			t.Fatalf("handle %d not done after Shutdown", x.h.Pid())
		}
		if res := x.h.Wait(); res.Reason != ReasonShutdown || !errors.Is(res.Err(), ErrShutdown) || !errors.Is(res.Err(), ErrStopped) {
			t.Fatalf("result %+v err %v", res, res.Err())
		}
	}
	assertGone(t, mark, pids)
	if _, err := r.Start(t.Context(), shSpec(t, mark, "true")); !errors.Is(err, ErrRunnerClosed) {
		t.Fatalf("start after shutdown: %v", err)
	}
	r.Shutdown(time.Second) // idempotent
}

// TestNaturalExitLeavesNothing: the child exits on its own but leaves
// processes behind; they are torn down and the result is the child's.
func TestNaturalExitLeavesNothing(t *testing.T) {
	cases := []struct {
		name  string
		spec  func(t *testing.T, mark string) Spec
		ready string
	}{
		{"background-jobs", func(t *testing.T, m string) Spec {
			return shSpec(t, m, `sleep 1000 & sleep 1000 & (trap '' TERM; sleep 1000) & echo ready; exit 0`)
		}, "ready"},
		{"double-forked-daemon", func(t *testing.T, m string) Spec { return helperSpec(t, m, "daemon", "1") }, "leaf-ready"},
		{"grandchild-closes-pty", func(t *testing.T, m string) Spec {
			return shSpec(t, m, `(exec >/dev/null 2>&1 </dev/null; sleep 1000) & echo ready`)
		}, "ready"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRunner(t)
			mark := newMark(t)
			s := tc.spec(t, mark)
			s.Grace = 300 * time.Millisecond
			x := start(t, r, s)
			res := wait(t, x.h)
			if !strings.Contains(x.output(), tc.ready) {
				t.Fatalf("output %q", x.output())
			}
			if res.Reason != ReasonNone || res.ExitCode != 0 || res.Err() != nil {
				t.Fatalf("result %+v err %v", res, res.Err())
			}
			assertGone(t, mark, nil)
		})
	}
}

func TestKillTree(t *testing.T) {
	mark := newMark(t)
	// A tree started outside any Runner, as found after a crash.
	c := helperCmd("escapee")
	c.Env = append(c.Env, mark)
	c.SysProcAttr = setsidAttr()
	out := &lockedBuffer{}
	c.Stdout = out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- c.Wait() }()
	deadline := time.Now().Add(safety)
	for !strings.Contains(out.String(), "escapee-ready") || !strings.Contains(out.String(), "ready\n") {
		if time.Now().After(deadline) {
			t.Fatalf("helper output %q", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	pids := marked(mark)
	if len(pids) != 2 {
		t.Fatalf("marked %v", pids)
	}
	if err := KillTree(c.Process.Pid, pids, 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	<-waited
	assertGone(t, mark, nil)
	if err := KillTree(c.Process.Pid, pids, 0); err != nil {
		t.Fatalf("second KillTree on a dead tree: %v", err)
	}
}

func TestKillTreeRefusesUnsafeTargets(t *testing.T) {
	for _, tc := range []struct {
		name string
		pgid int
		pids []int
	}{
		{"init-group", 1, nil},
		{"negative-group", -5, nil},
		{"own-group", ownPgid(), nil},
		{"init", 0, []int{1}},
		{"self", 0, []int{selfPid()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := KillTree(tc.pgid, tc.pids, time.Millisecond); !errors.Is(err, ErrUnsafeTarget) {
				t.Fatalf("KillTree(%d, %v) = %v, want ErrUnsafeTarget", tc.pgid, tc.pids, err)
			}
		})
	}
}

func TestKillTag(t *testing.T) {
	mark := newMark(t)
	tag := "test-" + mark[len(markEnv)+1:]
	// A daemon left by a dead run: its parent exited, it left the group.
	c := helperCmd("daemon", "1")
	c.Env = append(c.Env, mark, TagEnv+"="+tag)
	out := &lockedBuffer{}
	c.Stdout = out
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(safety)
	for !strings.Contains(out.String(), "leaf-ready") {
		if time.Now().After(deadline) {
			t.Fatalf("helper output %q", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	leaves := marked(mark)
	if len(leaves) != 1 {
		t.Fatalf("marked %v", leaves)
	}
	if err := KillTag(tag, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if m := marked(mark); len(m) > 0 {
		t.Fatalf("survivors %v", m)
	}
	// It may have been re-parented to this process; reap it.
	var ws unix.WaitStatus
	_, _ = unix.Wait4(leaves[0], &ws, unix.WNOHANG, nil)
	for _, bad := range []string{"", "a=b"} {
		if err := KillTag(bad, time.Millisecond); !errors.Is(err, ErrInvalidSpec) {
			t.Errorf("KillTag(%q) = %v", bad, err)
		}
	}
}

// TestAppSignalLeavesNothing runs a stand-in app process with hostile
// trees, sends it SIGTERM as the desktop would get on logout, and checks
// that the app stopped every tree before exiting.
func TestAppSignalLeavesNothing(t *testing.T) {
	for _, m := range mechanisms() {
		t.Run(m.name, func(t *testing.T) {
			env := []string{NoCgroupEnv + "=0"}
			if m.opts.NoCgroup {
				env = []string{NoCgroupEnv + "=1"}
			}
			appSignalLeavesNothing(t, env)
		})
	}
}

func appSignalLeavesNothing(t *testing.T, env []string) {
	mark := newMark(t)
	c := helperCmd("app")
	c.Env = append(append(c.Env, mark), env...)
	c.Dir = t.TempDir()
	c.SysProcAttr = setsidAttr()
	out := &lockedBuffer{}
	c.Stdout = out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(safety)
	for !strings.Contains(out.String(), "app-ready") {
		if time.Now().After(deadline) {
			_ = c.Process.Kill()
			t.Fatalf("app output %q", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	waitMarked(t, mark, 5) // app, ignore-term, escapee + child, daemon + leaf
	if err := c.Process.Signal(unix.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(); err != nil || !strings.Contains(out.String(), "app-stopped") {
		t.Fatalf("app exit %v, output %q", err, out.String())
	}
	t.Log(strings.TrimSpace(out.String()))
	assertGone(t, mark, nil)
}
