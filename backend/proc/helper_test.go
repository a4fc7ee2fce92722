//go:build linux

package proc

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// helperEnv selects a helper role when the test binary is re-run as a
// hostile child.
const helperEnv = "BOOF_PROC_HELPER"

// markEnv is set, with a per-test unique value, in the environment of every
// process a test spawns, so the survivor scan finds exactly those.
const markEnv = "BOOF_TEST_MARK"

// safety bounds how long a test waits for something that should happen;
// it only turns a hang into a failure, it is not a performance threshold.
const safety = 30 * time.Second

func TestMain(m *testing.M) {
	if role := os.Getenv(helperEnv); role != "" {
		os.Exit(helperMain(role, os.Args[1:]))
	}
	os.Exit(m.Run())
}

func sleepForever() { time.Sleep(24 * time.Hour) }

// helperMain runs one hostile child role.
func helperMain(role string, args []string) int {
	arg := func(i int) int {
		if i >= len(args) {
			return 0
		}
		n, _ := strconv.Atoi(args[i])
		return n
	}
	switch role {
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
		fmt.Println("ready")
		sleepForever()
	case "sleeper":
		sleepForever()
	case "escapee":
		// A child that leaves our session and group, ignoring SIGTERM.
		c := helperCmd("escapee-child")
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		c.Stdout = os.Stdout
		if err := c.Start(); err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Println("ready")
		sleepForever()
	case "escapee-child":
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
		fmt.Println("escapee-ready")
		sleepForever()
	case "daemon":
		// Classic double fork: mid does setsid, starts leaf and exits, so
		// leaf is re-parented (to us, the subreaper). args[0]==1: exit too.
		c := helperCmd("daemon-mid")
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		c.Stdout = os.Stdout
		if err := c.Run(); err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Println("ready")
		if arg(0) == 1 {
			return 0
		}
		sleepForever()
	case "daemon-mid":
		// mid exits once leaf has printed, so "leaf-ready" is always on the
		// terminal before "ready".
		r, w, err := os.Pipe()
		if err != nil {
			return 1
		}
		c := helperCmd("daemon-leaf")
		c.Stdout = os.Stdout
		c.ExtraFiles = []*os.File{w}
		if err := c.Start(); err != nil {
			return 1
		}
		w.Close()
		_, _ = r.Read(make([]byte, 1))
		return 0
	case "crash-runner":
		return crashRunnerMain(args)
	case "daemon-leaf":
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
		fmt.Println("leaf-ready")
		if ready := os.NewFile(3, "ready"); ready != nil {
			_, _ = ready.Write([]byte{1})
			ready.Close()
		}
		// Detach from the terminal like a real daemon.
		if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
			for fd := 0; fd <= 2; fd++ {
				_ = unix.Dup2(int(null.Fd()), fd)
			}
		}
		sleepForever()
	case "flood":
		// args[0] bytes of 100-byte lines.
		line := bytes.Repeat([]byte("0123456789"), 10)
		line[len(line)-1] = '\n'
		block := bytes.Repeat(line, 655) // 65500 bytes
		w := bufio.NewWriterSize(os.Stdout, len(block))
		for left := arg(0); left > 0; {
			n := min(left, len(block))
			_, _ = w.Write(block[:n])
			left -= n
		}
		_ = w.Flush()
	case "floodfile":
		// args[1] bytes of the file args[0], repeated.
		data, err := os.ReadFile(args[0])
		if err != nil || len(data) == 0 {
			os.Exit(3)
		}
		n, _ := strconv.Atoi(args[1])
		w := bufio.NewWriterSize(os.Stdout, 64<<10)
		for left := n; left > 0; {
			k := min(left, len(data))
			_, _ = w.Write(data[:k])
			left -= k
		}
		_ = w.Flush()
	case "bigline":
		b := bytes.Repeat([]byte("a"), arg(0))
		_, _ = os.Stdout.Write(append(b, '\n'))
		fmt.Println(`{"ok":true}`)
	case "hash":
		// Reads args[0] bytes (all until EOF when 0) and prints sha256 and length.
		var r io.Reader = os.Stdin
		if n := arg(0); n > 0 {
			r = io.LimitReader(os.Stdin, int64(n))
		}
		h := sha256.New()
		n, err := io.Copy(h, r)
		if err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Printf("%s %d\n", hex.EncodeToString(h.Sum(nil)), n)
	case "env":
		env := os.Environ()
		sort.Strings(env)
		fmt.Println(strings.Join(env, "\n"))
	case "app":
		return appMain()
	case "first-byte":
		_, _ = os.Stdout.Write([]byte("x"))
	default:
		fmt.Fprintln(os.Stderr, "unknown helper", role)
		return 2
	}
	return 0
}

// helperCmd re-runs the test binary in another role, keeping the environment
// (and so the test mark).
func helperCmd(role string, args ...string) *exec.Cmd {
	exe, _ := os.Executable()
	c := exec.Command(exe, args...)
	c.Env = append(os.Environ(), helperEnv+"="+role)
	return c
}

// testExe is the test binary, used as the helper child's executable.
func testExe(t testing.TB) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func newMark(t testing.TB) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return markEnv + "=" + hex.EncodeToString(b[:])
}

func newRunner(t testing.TB) *Runner {
	r := NewRunner(RunnerOptions{})
	t.Cleanup(func() { r.Shutdown(time.Second) })
	return r
}

// helperSpec runs a helper role with the test mark.
func helperSpec(t testing.TB, mark, role string, args ...string) Spec {
	return Spec{
		Path: testExe(t),
		Args: args,
		Dir:  t.TempDir(),
		Env:  []string{helperEnv + "=" + role, mark},
	}
}

// shSpec runs a /bin/sh script with the test mark.
func shSpec(t testing.TB, mark, script string) Spec {
	return Spec{Path: "/bin/sh", Args: []string{"-c", script}, Dir: t.TempDir(), Env: []string{mark}}
}

// run collects a handle's output.
type run struct {
	h      *Handle
	mu     sync.Mutex
	out    bytes.Buffer
	notify chan struct{}
}

func start(t testing.TB, r *Runner, s Spec) *run {
	t.Helper()
	x := &run{notify: make(chan struct{}, 1)}
	s.OnChunk = func(b []byte) {
		x.mu.Lock()
		x.out.Write(b)
		x.mu.Unlock()
		select {
		case x.notify <- struct{}{}:
		default:
		}
	}
	h, err := r.Start(context.Background(), s)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	x.h = h
	return x
}

func (x *run) output() string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.out.String()
}

// waitFor blocks until the output holds every token.
func (x *run) waitFor(t testing.TB, tokens ...string) {
	t.Helper()
	deadline := time.After(safety)
	for {
		out := x.output()
		all := true
		for _, tok := range tokens {
			if !strings.Contains(out, tok) {
				all = false
			}
		}
		if all {
			return
		}
		select {
		case <-x.notify:
		case <-x.h.Done():
			if out := x.output(); !containsAll(out, tokens) {
				t.Fatalf("child ended before printing %q; output %q", tokens, out)
			}
		case <-deadline:
			t.Fatalf("no %q in output %q", tokens, x.output())
		}
	}
}

func containsAll(s string, toks []string) bool {
	for _, tok := range toks {
		if !strings.Contains(s, tok) {
			return false
		}
	}
	return true
}

// wait waits for the handle, failing instead of hanging.
func wait(t testing.TB, h *Handle) Result {
	t.Helper()
	select {
	case <-h.Done():
	case <-time.After(safety):
		t.Fatalf("handle %d not done", h.Pid())
	}
	return h.Wait()
}

// marked lists live (non-zombie) processes whose environment or command
// line holds mark.
func marked(mark string) []int {
	self := os.Getpid()
	names, _ := os.ReadDir("/proc")
	var pids []int
	for _, n := range names {
		pid, err := strconv.Atoi(n.Name())
		if err != nil || pid == self {
			continue
		}
		if p, ok := readStat(pid); !ok || p.zombie {
			continue
		}
		env, _ := os.ReadFile("/proc/" + n.Name() + "/environ")
		cmd, _ := os.ReadFile("/proc/" + n.Name() + "/cmdline")
		if bytes.Contains(env, []byte(mark)) || bytes.Contains(cmd, []byte(mark)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// zombieChildren lists zombies parented to this process among pids.
func zombieChildren(pids []int) []int {
	var z []int
	for _, pid := range pids {
		if p, ok := readStat(pid); ok && p.zombie && p.ppid == os.Getpid() {
			z = append(z, pid)
		}
	}
	return z
}

// assertGone fails if any marked process is alive or any of pids is left
// as an unreaped zombie of ours.
func assertGone(t testing.TB, mark string, pids []int) {
	t.Helper()
	if s := marked(mark); len(s) > 0 {
		t.Errorf("survivors: %v", s)
		for _, pid := range s {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
	}
	if z := zombieChildren(pids); len(z) > 0 {
		t.Errorf("unreaped zombies: %v", z)
	}
}

func setsidAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

func ownPgid() int { return unix.Getpgrp() }

func selfPid() int { return os.Getpid() }

// lockedBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitMarked waits until at least n marked processes are visible (a
// process in the middle of exec briefly shows an empty environment).
func waitMarked(t testing.TB, mark string, n int) {
	t.Helper()
	deadline := time.Now().Add(safety)
	for {
		m := marked(mark)
		if len(m) >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("marked processes %v, want >= %d", m, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
