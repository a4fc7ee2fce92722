//go:build linux && reliability

package reliability

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The bad-input rows (R3, R4) drive the real headless binary, built into
// the row's own temporary directory (the go build cache makes the second
// build a link only), so nothing is left behind when the row ends.

// biBuild builds the headless boof-runner binary into a temp dir of t.
// BOOF_RELIABILITY_BIN names a prebuilt binary instead.
func biBuild(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("BOOF_RELIABILITY_BIN"); p != "" {
		return p
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	bin := filepath.Join(t.TempDir(), "boof-runner")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the app: %v\n%s", err, out)
	}
	return bin
}

// biCall is one run of the binary.
type biCall struct {
	args []string
	// stdin is fed to the process; nil with holdStdin false is an empty stdin.
	stdin []byte
	// holdStdin gives the process a pipe whose write end stays open: a
	// read of stdin never ends by itself.
	holdStdin bool
	// signal, when set, is sent signalAfter after the start, or, with
	// waitRead, as soon as the process waits reading a pipe or opening a
	// FIFO.
	signal      syscall.Signal
	signalAfter time.Duration
	waitRead    bool
	// stdinFIFO gives the process a named pipe as stdin, held open for
	// writing by the harness (a read never ends by itself).
	stdinFIFO bool
	// limit is how long the process may run (after the signal, when one is
	// sent) before it counts as hung and is killed.
	limit time.Duration
	env   []string
	// dir is the working directory (default a temp dir of the test, so a
	// command writing where it should not leaves nothing in the source tree).
	dir string
}

// biResult is what a run of the binary did.
type biResult struct {
	code           int
	stdout, stderr string
	// hung is true when the process had to be killed at the limit.
	hung bool
	// signaled names a signal that ended the process other than the one
	// the call sent (a crash: SIGSEGV, SIGABRT …).
	signaled string
	elapsed  time.Duration
}

// biExec runs bin with c and returns what happened; the process is always
// waited for, and killed (with its group) when it hangs.
func biExec(t *testing.T, bin string, c biCall) biResult {
	t.Helper()
	if c.limit == 0 {
		c.limit = 30 * time.Second
	}
	cmd := exec.Command(bin, c.args...)
	cmd.Dir = c.dir
	if cmd.Dir == "" {
		cmd.Dir = t.TempDir()
	}
	cmd.Env = append(append(os.Environ(), "BOOF_RUNNER_HOME="), c.env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	var hold io.Closer
	switch {
	case c.holdStdin:
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		hold = w
		cmd.Stdin = r
	case c.stdinFIFO:
		p := filepath.Join(t.TempDir(), "stdin.fifo")
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(p, os.O_RDWR, 0) // a reader and a writer: never blocks, never ends
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	case c.stdin != nil:
		cmd.Stdin = bytes.NewReader(c.stdin)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var res biResult
	limit := c.limit
	if c.signal != 0 {
		wait := time.After(c.signalAfter)
		if c.waitRead {
			wait = waitReading(cmd.Process.Pid, 20*time.Second)
		}
		select {
		case err := <-done:
			res.elapsed = time.Since(start)
			return biFinish(res, cmd, err, &out, &errb, 0)
		case <-wait:
		}
		_ = cmd.Process.Signal(c.signal)
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(limit):
		res.hung = true
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	}
	if hold != nil {
		hold.Close()
	}
	// Whatever the process left in its group (git, a hook) goes with it.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	res.elapsed = time.Since(start)
	return biFinish(res, cmd, err, &out, &errb, c.signal)
}

func biFinish(res biResult, cmd *exec.Cmd, err error, out, errb *bytes.Buffer, sent syscall.Signal) biResult {
	res.stdout, res.stderr = out.String(), errb.String()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		res.code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() != sent && !res.hung {
			res.signaled = ws.Signal().String()
		}
	}
	return res
}

// crashed reports whether the process panicked or died of a signal it was
// not sent.
func (r biResult) crashed() bool {
	return r.signaled != "" || strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "goroutine ") ||
		strings.Contains(r.stderr, "fatal error:") || r.code > 2 && !r.hung
}

// biLastLine is the last non-empty line of s.
func biLastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// waitReading fires once a thread of pid is blocked reading a pipe or
// opening a FIFO (Linux wchan), or at the limit.
func waitReading(pid int, limit time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	go func() {
		deadline := time.Now().Add(limit)
		for time.Now().Before(deadline) {
			files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/wchan", pid))
			for _, w := range files {
				b, _ := os.ReadFile(w)
				if s := string(b); strings.Contains(s, "pipe") || strings.Contains(s, "fifo") || strings.Contains(s, "wait_for_partner") {
					ch <- time.Now()
					return
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		ch <- time.Now()
	}()
	return ch
}
