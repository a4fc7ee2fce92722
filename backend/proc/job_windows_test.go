package proc

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// helperEnv makes the test binary act as a hostile child (see TestMain).
const helperEnv = "BOOF_PROC_TEST_HELPER"

// TestMain turns the test binary into the helpers the Job Object tests
// start: "parent" ignores Ctrl-Break, starts a grandchild detached from
// its console and in a process group of its own, writes the grandchild's
// pid to $PIDFILE, says so and waits forever; "grandchild" waits forever.
func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "parent":
		signal.Ignore(os.Interrupt)
		gc := exec.Command(os.Args[0])
		gc.Env = append(os.Environ(), helperEnv+"=grandchild")
		gc.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP}
		if err := gc.Start(); err != nil {
			os.Stdout.WriteString("grandchild: " + err.Error() + "\n")
			os.Exit(3)
		}
		pidfile := os.Getenv("PIDFILE")
		_ = os.WriteFile(pidfile+".tmp", []byte(strconv.Itoa(gc.Process.Pid)), 0o600)
		_ = os.Rename(pidfile+".tmp", pidfile)
		os.Stdout.WriteString("hostile tree ready\n")
		time.Sleep(time.Hour) // (a bare select{} would end as a deadlock)
	case "grandchild":
		time.Sleep(time.Hour) // (a bare select{} would end as a deadlock)
	case "starter":
		// Leaves a hostile parent behind, detached, once its tree is up.
		p := exec.Command(os.Args[0])
		p.Env = append(os.Environ(), helperEnv+"=parent")
		p.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP}
		if err := p.Start(); err != nil {
			os.Exit(3)
		}
		_ = os.WriteFile(os.Getenv("PIDFILE")+".parent", []byte(strconv.Itoa(p.Process.Pid)), 0o600)
		for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(os.Getenv("PIDFILE")); err == nil {
				os.Exit(0)
			}
		}
		os.Exit(4)
	}
	os.Exit(m.Run())
}

// running reports whether pid names a live process.
func running(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION|windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	ev, _ := windows.WaitForSingleObject(h, 0)
	return ev == uint32(windows.WAIT_TIMEOUT)
}

// collector gathers a child's output.
type collector struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (c *collector) add(p []byte) { c.mu.Lock(); c.buf.Write(p); c.mu.Unlock() }
func (c *collector) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// TestJobStopEndsAHostileTree: a child that ignores Ctrl-Break and a
// grandchild it started detached, in a group of its own, are both in the
// child's job (Pids lists them) and both gone once Stop returns through
// Wait; the output came through the pipe.
func TestJobStopEndsAHostileTree(t *testing.T) {
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "grandchild.pid")
	r := NewRunner(RunnerOptions{})
	defer r.Shutdown(time.Second)
	var out collector
	h, err := r.Start(context.Background(), Spec{
		Path: os.Args[0], Args: []string{"-test.run=^$"}, Dir: dir,
		Env:   []string{helperEnv + "=parent", "PIDFILE=" + pidfile},
		Grace: 200 * time.Millisecond, OnChunk: out.add,
	})
	if err != nil {
		t.Fatal(err)
	}
	var gc int
	for deadline := time.Now().Add(2 * time.Minute); gc == 0; time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(pidfile); err == nil {
			gc, _ = strconv.Atoi(string(b))
		}
		if time.Now().After(deadline) { // a hang, not a speed threshold
			h.Stop(ReasonStopped)
			t.Fatalf("the helper never started its grandchild; output %q", out.String())
		}
	}
	pids := h.Pids()
	if !contains(pids, h.Pid()) || !contains(pids, gc) {
		t.Fatalf("job holds %v; want the child %d and the detached grandchild %d", pids, h.Pid(), gc)
	}
	if !running(gc) {
		t.Fatalf("grandchild %d not running before the stop", gc)
	}
	h.Stop(ReasonStopped)
	res := h.Wait()
	if res.Reason != ReasonStopped {
		t.Errorf("reason %v, want stopped", res.Reason)
	}
	for _, pid := range []int{h.Pid(), gc} {
		if running(pid) {
			t.Errorf("pid %d survived the stop", pid)
		}
	}
	if got := h.Pids(); got != nil {
		t.Errorf("Pids after Wait = %v, want nil", got)
	}
	if !strings.Contains(out.String(), "hostile tree ready") {
		t.Errorf("output %q lacks the child's line", out.String())
	}
}

// TestJobEndsLeftoversAfterANaturalExit: a child that exits on its own
// leaves a detached, Ctrl-Break-ignoring process and its own detached
// child behind; the job ends both after the grace, as the process group
// does on Linux.
func TestJobEndsLeftoversAfterANaturalExit(t *testing.T) {
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "grandchild.pid")
	r := NewRunner(RunnerOptions{})
	defer r.Shutdown(time.Second)
	h, err := r.Start(context.Background(), Spec{
		Path: os.Args[0], Args: []string{"-test.run=^$"}, Dir: dir,
		Env:   []string{helperEnv + "=starter", "PIDFILE=" + pidfile},
		Grace: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	res := h.Wait()
	if res.Reason != ReasonNone || res.ExitCode != 0 {
		t.Errorf("reason %v, exit %d; want a natural exit 0", res.Reason, res.ExitCode)
	}
	for _, f := range []string{pidfile + ".parent", pidfile} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("the helpers never wrote %s: %v", f, err)
		}
		if pid, _ := strconv.Atoi(string(b)); pid == 0 || running(pid) {
			t.Errorf("pid %d (%s) survived its tree's end", pid, filepath.Base(f))
		}
	}
}

// TestStartFindsAnNpmStyleShim: "hi" resolves through PATHEXT to hi.cmd,
// which cmd.exe runs inside the job, as an npm agent CLI shim is.
func TestStartFindsAnNpmStyleShim(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hi.cmd"), []byte("@echo hello from the shim %1\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := NewRunner(RunnerOptions{})
	defer r.Shutdown(time.Second)
	var out collector
	h, err := r.Start(context.Background(), Spec{
		Path: "hi", Args: []string{"there"}, Dir: dir,
		Env: []string{"PATH=" + dir + ";" + os.Getenv("PATH")}, OnChunk: out.add,
	})
	if err != nil {
		t.Fatal(err)
	}
	res := h.Wait()
	if res.ExitCode != 0 || !strings.Contains(out.String(), "hello from the shim there") {
		t.Fatalf("exit %d, output %q", res.ExitCode, out.String())
	}
	if _, err := r.Start(context.Background(), Spec{Path: "nosuchtool", Dir: dir, Env: []string{"PATH=" + dir}}); !errors.Is(err, exec.ErrNotFound) {
		t.Fatalf("a missing tool: %v, want exec.ErrNotFound", err)
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
