package shell

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// launches records what an Instance hands on.
type launches struct {
	mu  sync.Mutex
	got []Launch
}

func (l *launches) add(x Launch) { l.mu.Lock(); l.got = append(l.got, x); l.mu.Unlock() }
func (l *launches) list() []Launch {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.got)
}

// waitLaunches waits until l holds n launches (a hand-off is acknowledged
// before it is delivered).
func waitLaunches(t *testing.T, l *launches, n int) []Launch {
	t.Helper()
	waitFor(t, fmt.Sprintf("%d launches", n), func() bool { return len(l.list()) >= n })
	return l.list()
}

func claim(t *testing.T, root string, l Launch) (*Instance, bool) {
	t.Helper()
	inst, handed, err := ClaimInstance(context.Background(), root, l, nil)
	if err != nil {
		t.Fatalf("claim %s: %v", root, err)
	}
	if inst != nil {
		t.Cleanup(func() { inst.Close() })
	}
	return inst, handed
}

func TestInstanceSecondLaunchHandsOverAndStartsNothing(t *testing.T) {
	root := filepath.Join(t.TempDir(), "data")
	first, handed := claim(t, root, Launch{})
	if handed || first == nil || !first.Guarded() {
		t.Fatalf("first launch: %v %v", first, handed)
	}
	// A launch that arrives before the app serves is kept for it.
	if inst, handed := claim(t, root, Launch{NewTask: true}); !handed || inst != nil {
		t.Fatalf("second launch was not handed over: %v %v", inst, handed)
	}
	var got launches
	first.Serve(got.add)
	if _, handed := claim(t, root, Launch{Review: true, ReviewID: "01ABC"}); !handed {
		t.Fatal("third launch was not handed over")
	}
	if _, handed := claim(t, root, Launch{}); !handed {
		t.Fatal("fourth launch was not handed over")
	}
	want := []Launch{{NewTask: true}, {Review: true, ReviewID: "01ABC"}, {}}
	if !slices.Equal(waitLaunches(t, &got, 3), want) {
		t.Fatalf("launches %+v, want %+v", got.list(), want)
	}
	// Another data root is another app.
	if other, handed := claim(t, filepath.Join(t.TempDir(), "other"), Launch{}); handed || other == nil {
		t.Fatal("a launch on another data root was handed to the first app")
	}
	// Once the app closed, the next launch is the app.
	first.Close()
	if next, handed := claim(t, root, Launch{}); handed || next == nil || !next.Guarded() {
		t.Fatalf("launch after close: %v %v", next, handed)
	}
}

func TestInstanceCorruptOrStaleFilesNeverStopTheApp(t *testing.T) {
	root := t.TempDir()
	// What a crashed app leaves: a lock file with another pid (or garbage)
	// and its socket file, not listening.
	os.WriteFile(filepath.Join(root, instanceLockFile), []byte("\x00\xffnot a pid at all"), 0o600)
	ln, err := net.Listen("unix", filepath.Join(root, instanceSocketFile))
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	inst, handed := claim(t, root, Launch{})
	if handed || inst == nil || !inst.Guarded() {
		t.Fatalf("stale files kept the app from starting: %v %v", inst, handed)
	}
	var got launches
	inst.Serve(got.add)
	if _, handed := claim(t, root, Launch{NewTask: true}); !handed || len(waitLaunches(t, &got, 1)) != 1 {
		t.Fatalf("the new app does not take launches: %v %+v", handed, got.list())
	}
	b, _ := os.ReadFile(filepath.Join(root, instanceLockFile))
	if strings.TrimSpace(string(b)) != fmt.Sprint(os.Getpid()) {
		t.Fatalf("lock file holds %q, want this pid", b)
	}
}

func TestInstanceUnusableLockStartsUnguardedAndStillHandsOver(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, instanceLockFile), 0o700); err != nil { // a directory cannot be locked
		t.Fatal(err)
	}
	inst, handed := claim(t, root, Launch{})
	if handed || inst == nil || inst.Guarded() {
		t.Fatalf("unusable lock: %v %v", inst, handed)
	}
	var got launches
	inst.Serve(got.add)
	if _, handed := claim(t, root, Launch{Review: true}); !handed {
		t.Fatal("a second launch started a second app")
	}
	if want := []Launch{{Review: true}}; !slices.Equal(waitLaunches(t, &got, 1), want) {
		t.Fatalf("launches %+v", got.list())
	}
}

func TestInstanceLockOfACrashedAppIsFree(t *testing.T) {
	root := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "BOOF_INSTANCE_HELPER="+root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "claimed" {
		cmd.Process.Kill()
		t.Fatalf("helper: %q %v", line, err)
	}
	// While it runs, a launch is handed to it.
	if _, handed := claim(t, root, Launch{}); !handed {
		cmd.Process.Kill()
		t.Fatal("launch not handed to the running helper")
	}
	cmd.Process.Signal(syscall.SIGKILL) // crash: no Close, files left behind
	cmd.Wait()
	inst, handed := claim(t, root, Launch{})
	if handed || inst == nil || !inst.Guarded() {
		t.Fatalf("the crashed app's lock kept the app from starting: %v %v", inst, handed)
	}
}

// instanceHelper claims root for TestInstanceLockOfACrashedAppIsFree and
// waits to be killed; see TestMain.
func instanceHelper(root string) {
	inst, handed, err := ClaimInstance(context.Background(), root, Launch{}, nil)
	if err != nil || handed {
		fmt.Println("failed", err, handed)
		os.Exit(1)
	}
	inst.Serve(func(Launch) {})
	fmt.Println("claimed")
	select {}
}

func TestInstanceLaunchDuringQuitWaitsForTheLock(t *testing.T) {
	root := t.TempDir()
	first, _ := claim(t, root, Launch{})
	first.Serve(func(Launch) {})
	first.Retire() // quitting: no more hand-offs, the lock still held
	type result struct {
		inst   *Instance
		handed bool
		err    error
	}
	done := make(chan result, 1)
	go func() {
		inst, handed, err := ClaimInstance(context.Background(), root, Launch{NewTask: true}, nil)
		done <- result{inst, handed, err}
	}()
	select {
	case r := <-done:
		t.Fatalf("the launch did not wait for the quitting app: %+v", r)
	case <-time.After(300 * time.Millisecond):
	}
	first.Close()
	r := <-done
	if r.err != nil || r.handed || r.inst == nil {
		t.Fatalf("launch after the quit: %+v", r)
	}
	r.inst.Close()
}

func TestInstanceHolderThatNeverAnswers(t *testing.T) {
	root := t.TempDir()
	f, held, err := lockInstance(filepath.Join(root, instanceLockFile)) // locked, nobody listening
	if err != nil || held {
		t.Fatal(err, held)
	}
	defer f.Close()
	old := handOffTimeout
	handOffTimeout = 300 * time.Millisecond
	defer func() { handOffTimeout = old }()
	_, _, err = ClaimInstance(context.Background(), root, Launch{}, nil)
	if !errors.Is(err, ErrNotAnswering) || !strings.Contains(err.Error(), fmt.Sprintf("(pid %d)", os.Getpid())) {
		t.Fatalf("got %v, want ErrNotAnswering naming the pid", err)
	}
}

func TestInstanceRefusesAMalformedHandOff(t *testing.T) {
	root := t.TempDir()
	inst, _ := claim(t, root, Launch{})
	var got launches
	inst.Serve(got.add)
	c, err := net.Dial("unix", filepath.Join(root, instanceSocketFile))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintln(c, `{"launch": "not an object"`)
	reply, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || strings.TrimSpace(reply) != `{"ok":false}` {
		t.Fatalf("reply %q %v", reply, err)
	}
	// A good launch after it is the first one delivered.
	if _, handed := claim(t, root, Launch{NewTask: true}); !handed {
		t.Fatal("no hand-off after the malformed one")
	}
	if l := waitLaunches(t, &got, 1); !slices.Equal(l, []Launch{{NewTask: true}}) {
		t.Fatalf("a malformed request was delivered: %+v", l)
	}
}

func TestInstanceLongDataRootUsesTheRuntimeDir(t *testing.T) {
	runtime, err := os.MkdirTemp("", "rt") // short: t.TempDir's name may be too long itself
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(runtime) })
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	root := filepath.Join(t.TempDir(), strings.Repeat("a-very-long-folder-name-", 6))
	inst, _ := claim(t, root, Launch{})
	if !strings.HasPrefix(inst.sock, runtime+string(filepath.Separator)) {
		t.Fatalf("socket %s not in the runtime dir", inst.sock)
	}
	var got launches
	inst.Serve(got.add)
	if _, handed := claim(t, root, Launch{NewTask: true}); !handed || len(waitLaunches(t, &got, 1)) != 1 {
		t.Fatal("no hand-off through the runtime-dir socket")
	}
}
