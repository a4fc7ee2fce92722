//go:build linux

package proc

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// mechanism is one way a Runner tracks trees.
type mechanism struct {
	name string
	opts RunnerOptions
}

// mechanisms are the two a Runner can use: per-child cgroups, and the
// fallback without them (the subreaper and /proc scans).
func mechanisms() []mechanism {
	return []mechanism{{"cgroup", RunnerOptions{}}, {"fallback", RunnerOptions{NoCgroup: true}}}
}

// newRunnerWith makes a Runner using m, skipping the test when m is
// cgroups and the machine has none usable; it logs the mechanism.
func newRunnerWith(t testing.TB, m mechanism) *Runner {
	t.Helper()
	r := NewRunner(m.opts)
	t.Cleanup(func() { r.Shutdown(time.Second) })
	usesCgroup := strings.HasPrefix(r.Mechanism(), "cgroup")
	if m.name == "cgroup" && !usesCgroup {
		t.Skipf("no usable cgroup v2 here: %s", r.Mechanism())
	}
	if m.name != "cgroup" && usesCgroup {
		t.Fatalf("NoCgroup given, mechanism %s", r.Mechanism())
	}
	t.Logf("process trees: %s", r.Mechanism())
	return r
}

// hideScript starts a helper that hides as well as a process can without
// privileges: its parent (a subshell) exits at once, it leaves the session,
// clears its whole environment (tags and test mark) and moves to /. It
// writes its pid to pidFile.
func hideScript(pidFile string) string {
	return fmt.Sprintf(`(setsid env -i PATH=/usr/bin:/bin sh -c 'cd /; echo $$ >"$1.tmp"; mv "$1.tmp" "$1"; exec sleep 1000' hide %q </dev/null >/dev/null 2>&1 &)`, pidFile)
}

// daemonScript double-forks a daemon that keeps its environment.
const daemonScript = `(setsid sleep 1000 </dev/null >/dev/null 2>&1 &)`

// hidden is the hiding helper, once it wrote its pid.
type hidden struct {
	pid   int
	start uint64
}

func waitHidden(t testing.TB, pidFile string) hidden {
	t.Helper()
	deadline := time.Now().Add(safety)
	for {
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("pid file: %q", b)
			}
			p, ok := readStat(pid)
			if !ok {
				t.Fatalf("the hiding helper %d is gone already", pid)
			}
			// Once it runs sleep its environment can be read (during
			// the exec it reads as empty).
			if cmdline(pid) == "sleep 1000" {
				return hidden{pid, p.start}
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the hiding helper never wrote its pid")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// alive reports whether the helper still runs (or is a zombie nobody reaped
// of ours).
func (x hidden) alive() bool {
	p, ok := readStat(x.pid)
	return ok && p.start == x.start && (!p.zombie || p.ppid == os.Getpid())
}

func (x hidden) assertGone(t testing.TB) {
	t.Helper()
	if x.alive() {
		t.Errorf("the hiding helper %d survived", x.pid)
		_ = unix.Kill(x.pid, unix.SIGKILL)
	}
}

// hidingSpec runs the hiding helper and a double-forked daemon, prints
// ready, then waits; exit says whether it exits then instead.
func hidingSpec(t testing.TB, mark, pidFile string, exit bool) Spec {
	tail := "sleep 1000"
	if exit {
		// Once the helper is up: the test must see it before it ends.
		tail = fmt.Sprintf(`while [ ! -e %q ]; do sleep 0.01; done; sleep 0.1; exit 0`, pidFile)
	}
	s := shSpec(t, mark, hideScript(pidFile)+"; "+daemonScript+"; echo ready; "+tail)
	s.Grace = 300 * time.Millisecond
	return s
}

// TestHidingHelper: whatever a helper does to hide (a new session, an
// empty environment, another directory, a parent that exits at once), it
// ends with its tree: on a stop, on the child's own exit and on Shutdown,
// with either mechanism.
func TestHidingHelper(t *testing.T) {
	for _, m := range mechanisms() {
		for _, end := range []string{"stop", "natural-exit", "shutdown"} {
			t.Run(m.name+"/"+end, func(t *testing.T) {
				r := newRunnerWith(t, m)
				mark := newMark(t)
				pidFile := filepath.Join(t.TempDir(), "hide.pid")
				x := start(t, r, hidingSpec(t, mark, pidFile, end == "natural-exit"))
				hid := waitHidden(t, pidFile)
				switch end {
				case "stop":
					x.waitFor(t, "ready")
					waitMarked(t, mark, 2) // the shell and the daemon
					x.h.Stop(ReasonStopped)
				case "shutdown":
					x.waitFor(t, "ready")
					waitMarked(t, mark, 2)
					r.Shutdown(300 * time.Millisecond)
				}
				res := wait(t, x.h)
				t.Logf("result: %+v", res)
				hid.assertGone(t)
				assertGone(t, mark, nil)
			})
		}
	}
}

// TestHidingHelperPids: the tree a step records for recovery holds the
// hiding helper (the cgroup's members, or the escapee the fallback
// attributes to its only live child).
func TestHidingHelperPids(t *testing.T) {
	for _, m := range mechanisms() {
		t.Run(m.name, func(t *testing.T) {
			r := newRunnerWith(t, m)
			mark := newMark(t)
			pidFile := filepath.Join(t.TempDir(), "hide.pid")
			x := start(t, r, hidingSpec(t, mark, pidFile, false))
			hid := waitHidden(t, pidFile)
			pids := x.h.Pids()
			if !contains(pids, hid.pid) || !contains(pids, x.h.Pid()) {
				t.Fatalf("Pids %v lack the child %d or the hiding helper %d", pids, x.h.Pid(), hid.pid)
			}
			x.h.Stop(ReasonStopped)
			wait(t, x.h)
			hid.assertGone(t)
			assertGone(t, mark, nil)
		})
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

// TestFallbackEscapeeOfTwoChildren is the fallback's limit: with two
// children live since before the helper hid, it cannot tell whose it is,
// so it stays until the second one ends (never past the Runner).
func TestFallbackEscapeeOfTwoChildren(t *testing.T) {
	r := newRunnerWith(t, mechanism{"fallback", RunnerOptions{NoCgroup: true}})
	mark := newMark(t)
	other := start(t, r, shSpec(t, mark, `echo ready; sleep 1000`))
	other.waitFor(t, "ready")
	pidFile := filepath.Join(t.TempDir(), "hide.pid")
	x := start(t, r, hidingSpec(t, mark, pidFile, false))
	hid := waitHidden(t, pidFile)
	x.h.Stop(ReasonStopped)
	wait(t, x.h)
	if !hid.alive() {
		t.Fatal("the helper was ended with the first child: the rule changed, update the package doc")
	}
	other.h.Stop(ReasonStopped)
	wait(t, other.h)
	hid.assertGone(t)
	assertGone(t, mark, nil)
}

// TestKillStaleCgroups: a process running a Runner with a scope is killed
// (kill -9) while its child's hiding helper runs; KillStaleCgroups of the
// scope, in another process, ends the helper and names its step, removes
// the dead Runner's cgroups, and leaves a live Runner of the scope alone.
func TestKillStaleCgroups(t *testing.T) {
	scope := "t" + newMark(t)[len(markEnv)+1:]
	live := newRunnerWith(t, mechanism{"cgroup", RunnerOptions{Scope: scope}})
	mark := newMark(t)
	pidFile := filepath.Join(t.TempDir(), "hide.pid")
	c := helperCmd("crash-runner", scope, pidFile)
	c.Env = append(c.Env, mark)
	c.Dir = t.TempDir()
	out := &lockedBuffer{}
	c.Stdout = out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	hid := waitHidden(t, pidFile)
	waitMarked(t, mark, 3) // the crash runner, its child and the daemon
	_ = c.Process.Kill()
	_ = c.Wait()
	if !hid.alive() {
		t.Fatal("the hiding helper died with the runner: the test shows nothing")
	}
	other := start(t, live, shSpec(t, mark, `echo ready; sleep 1000`))
	other.waitFor(t, "ready")

	found, err := KillStaleCgroups(scope, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("found %+v", found)
	// This process may be a subreaper (a fallback Runner of another
	// test made it one): then the orphans of the killed run are its
	// children, and its zombies to reap.
	for _, f := range found {
		if p, ok := readStat(f.PID); ok && p.zombie && p.ppid == os.Getpid() {
			var ws unix.WaitStatus
			_, _ = unix.Wait4(f.PID, &ws, unix.WNOHANG, nil)
		}
	}
	hid.assertGone(t)
	var helper *Tagged
	for i := range found {
		if found[i].PID == hid.pid {
			helper = &found[i]
		}
	}
	if helper == nil || helper.TaskID() != "T1" || helper.Step() != "developer" {
		t.Fatalf("the helper %d not found with its step: %+v", hid.pid, found)
	}
	if len(found) < 2 {
		// The child itself may be gone: the end of its terminal with the
		// runner hung it up.
		t.Fatalf("found %d processes, want the helper and the daemon", len(found))
	}
	if len(other.h.Pids()) == 0 {
		t.Fatal("a live Runner's child was ended")
	}
	ents, _ := os.ReadDir(live.cg.parent)
	if len(ents) == 0 {
		t.Fatal("the live Runner's directory is gone")
	}
	for _, e := range ents {
		if e.IsDir() && !strings.HasSuffix(e.Name(), "."+live.id) {
			t.Errorf("a dead Runner's cgroup is left: %s", e.Name())
		}
	}
	other.h.Stop(ReasonStopped)
	wait(t, other.h)
	live.Shutdown(time.Second)
	if _, err := os.Stat(live.cg.parent); !os.IsNotExist(err) {
		t.Errorf("the scope's cgroup is left after the last Runner's Shutdown: %v", err)
	}
	assertGone(t, mark, nil)
	if _, err := KillStaleCgroups("", time.Millisecond); err == nil {
		t.Error("an empty scope was accepted")
	}
}

// crashRunnerMain runs a Runner with the scope args[0] whose child starts
// the hiding helper (pid file args[1]), then waits to be killed.
func crashRunnerMain(args []string) int {
	if len(args) < 2 {
		return 2
	}
	r := NewRunner(RunnerOptions{Scope: args[0]})
	dir, _ := os.Getwd()
	_, err := r.Start(context.Background(), Spec{
		Path: "/bin/sh", Args: []string{"-c", hideScript(args[1]) + "; " + daemonScript + "; sleep 1000"}, Dir: dir,
		Env: []string{StepTagEnv(args[0], OwnerRun, "T1", "developer"), markEnv + "=" + os.Getenv(markEnv)},
	})
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	fmt.Println("crash-runner ready:", r.Mechanism())
	sleepForever()
	return 0
}

// TestNestedCgroups: a child that makes cgroups of its own below its step's
// (a copy of the app run as a step does) is ended whole, by cgroup.kill
// when its members ignore SIGTERM, and its cgroups go with the step's.
func TestNestedCgroups(t *testing.T) {
	r := newRunnerWith(t, mechanism{"cgroup", RunnerOptions{}})
	mark := newMark(t)
	s := shSpec(t, mark, `d=$(sed -n 's/^0:://p' /proc/self/cgroup); d="$CGROOT$d/inner"; mkdir "$d" &&
		(trap '' TERM; sh -c 'echo $$ >"$1/cgroup.procs"; exec sleep 1000' inner "$d") &
		while [ -z "$(cat "$d/cgroup.procs")" ]; do sleep 0.01; done; echo ready; wait`)
	mounts, err := cgroup2Mounts()
	if err != nil {
		t.Fatal(err)
	}
	s.Env = append(s.Env, "CGROOT="+mounts[0].point)
	s.Grace = 200 * time.Millisecond
	x := start(t, r, s)
	x.waitFor(t, "ready")
	inner := filepath.Join(x.h.cg.dir, "inner")
	pids, err := stepCgroup{dir: inner}.pids()
	if err != nil || len(pids) != 1 {
		t.Fatalf("inner cgroup holds %v (%v)", pids, err)
	}
	x.h.Stop(ReasonStopped)
	wait(t, x.h)
	if p, ok := readStat(pids[0]); ok && !p.zombie {
		t.Errorf("the process in the inner cgroup survived: %d", pids[0])
	}
	if _, err := os.Stat(x.h.cg.dir); !os.IsNotExist(err) {
		t.Errorf("the step's cgroup is left: %v", err)
	}
	assertGone(t, mark, nil)
}
