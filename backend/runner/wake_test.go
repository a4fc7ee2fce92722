package runner_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/task"
)

// noPoll makes the runner's steps look for controls only once an hour
// unless woken: whatever arrives in a test's time came through the wake-up
// socket.
const noPoll = "BOOF_RUNNER_CONTROL_POLL=1h"

func stopRunner(t *testing.T, cmd *exec.Cmd, out *bytes.Buffer) {
	t.Helper()
	_ = cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); cmd.ProcessState.ExitCode() != 143 {
		t.Fatalf("runner exit after SIGTERM: %v, want 143\n%s", err, out)
	}
}

// inject and stop sent by other processes (the CLI) reach a running step
// through the runner's wake-up socket: with the control poll an hour long
// they still arrive, each applied once however often the socket is rung;
// the runner removes its socket when it ends.
func TestControlsArriveThroughWakeSocket(t *testing.T) {
	r := newRoot(t, nil)
	sock := dataroot.Paths{Root: r.dir}.WakeSocket()
	tk := r.add("Hang.\n[[mock-stall developer=1]]", 1)
	cmd, out := r.spawnEnv([]string{noPoll})
	x := waitExec(t, r, tk.ID, task.RoleDeveloper)
	if fi, err := os.Lstat(sock); err != nil || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("no wake-up socket in the data root while the runner runs: %v", err)
	}
	if res := r.cli(context.Background(), "inject", tk.ID, "Prefer small commits."); res.code != 0 {
		t.Fatalf("inject: %+v", res)
	}
	waitFor(t, "live delivery", func() bool {
		return strings.Contains(r.logText(tk.ID), "Injected prompt delivered live to developer")
	})
	for range 5 { // more pokes change nothing
		if res := r.cli(context.Background(), "settings", "get", "runner.enabled"); res.code != 0 {
			t.Fatalf("settings get: %+v", res)
		}
	}
	if res := r.cli(context.Background(), "stop", tk.ID); res.code != 0 {
		t.Fatalf("stop: %+v", res)
	}
	waitFor(t, "task stopped", func() bool { return r.get(tk.ID).Status == task.StatusStopped })
	waitFor(t, "agent gone", func() bool { return !alive(x.PID) })
	if n := strings.Count(r.logText(tk.ID), "Injected prompt delivered live"); n != 1 {
		t.Fatalf("the injection was delivered %d times:\n%s", n, r.logText(tk.ID))
	}
	stopRunner(t, cmd, out)
	if _, err := os.Lstat(sock); !os.IsNotExist(err) {
		t.Fatalf("the wake-up socket outlived the runner: %v", err)
	}
}

// A stale socket (a crashed runner's file) is replaced by the next runner,
// whose socket then works.
func TestStaleWakeSocketReplaced(t *testing.T) {
	r := newRoot(t, nil)
	sock := dataroot.Paths{Root: r.dir}.WakeSocket()
	dead, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	dead.Close() // the file stays, as after a crash
	tk := r.add("Hang.\n[[mock-stall developer=1]]", 1)
	if res := r.cli(context.Background(), "stop", tk.ID); res.code == 0 {
		t.Fatalf("stop of a pending task succeeded: %+v", res)
	}
	cmd, out := r.spawnEnv([]string{noPoll})
	waitExec(t, r, tk.ID, task.RoleDeveloper)
	if res := r.cli(context.Background(), "stop", tk.ID); res.code != 0 {
		t.Fatalf("stop: %+v", res)
	}
	waitFor(t, "task stopped", func() bool { return r.get(tk.ID).Status == task.StatusStopped })
	stopRunner(t, cmd, out)
}

// Without the socket (removed while the runner runs, or a file system
// without sockets) a stop still arrives, through the poll.
func TestStopWithoutWakeSocketArrivesByPoll(t *testing.T) {
	r := newRoot(t, nil)
	tk := r.add("Hang.\n[[mock-stall developer=1]]", 1)
	cmd, out := r.spawnEnv(nil)
	x := waitExec(t, r, tk.ID, task.RoleDeveloper)
	if err := os.Remove(dataroot.Paths{Root: r.dir}.WakeSocket()); err != nil {
		t.Fatal(err)
	}
	if res := r.cli(context.Background(), "stop", tk.ID); res.code != 0 {
		t.Fatalf("stop without a socket: %+v", res)
	}
	waitFor(t, "task stopped", func() bool { return r.get(tk.ID).Status == task.StatusStopped })
	waitFor(t, "agent gone", func() bool { return !alive(x.PID) })
	if n := strings.Count(r.logText(tk.ID), "Stop requested: stopping developer"); n != 1 {
		t.Fatalf("the stop was applied %d times:\n%s", n, r.logText(tk.ID))
	}
	stopRunner(t, cmd, out)
}
