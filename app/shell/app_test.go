package shell

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// syncBuffer is a log sink safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// newDataRoot makes a data root whose settings run every role with the mock
// tool on a fresh git repository, and points the session bus nowhere (no
// tray, no notifications: the desktop is not under test here).
func newDataRoot(t *testing.T) string {
	t.Helper()
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+t.TempDir()+"/no-bus")
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "README"), []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "README")
	git(t, repo, "commit", "-q", "-m", "init")
	data := filepath.Join(root, "data")
	if err := dataroot.Ensure(data); err != nil {
		t.Fatal(err)
	}
	settingsJSON := `{"workingDirectory": "` + repo + `", "retries": {"backoffMs": [10]},
		"roles": {"planner": {"tool": "mock"}, "refinement": {"tool": "mock"}, "developer": {"tool": "mock"}, "reviewer": {"tool": "mock"}},
		"stop": {"graceMs": 1000}}`
	if err := os.WriteFile(dataroot.Paths{Root: data}.Settings(), []byte(settingsJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	return data
}

func openApp(t *testing.T, data string, log *syncBuffer) *App {
	t.Helper()
	a, err := Open(context.Background(), Options{DataDir: data, Log: slog.New(slog.NewTextHandler(log, nil)),
		Exe: os.Args[0]})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

var goroutineHeader = regexp.MustCompile(`^goroutine (\d+) `)

// ourGoroutines returns the stacks, by goroutine id, of every goroutine
// running code of this module, but the test's own ones.
func ourGoroutines() map[string]string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := map[string]string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		m := goroutineHeader.FindStringSubmatch(g)
		if m == nil || !strings.Contains(g, "github.com/boof-runner/boof-runner/") ||
			strings.Contains(g, "testing.tRunner") || strings.Contains(g, "testing.(*M).Run") {
			continue
		}
		out[m[1]] = g
	}
	return out
}

// newGoroutines lists the goroutines of this module that were not in before.
// A goroutine that was waited for may still be returning from its deferred
// Done, so this waits (at most 5 s, a guard against a hang) for those.
func newGoroutines(before map[string]string) []string {
	deadline := time.Now().Add(5 * time.Second)
	for {
		var left []string
		for id, g := range ourGoroutines() {
			if _, ok := before[id]; !ok {
				left = append(left, g)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
		runtime.Gosched()
		time.Sleep(10 * time.Millisecond)
	}
}

// startEndlessTask adds a task through the bound service whose developer
// never finishes by itself, and waits until that step's processes run.
func startEndlessTask(t *testing.T, a *App) task.Task {
	t.Helper()
	tk, err := a.tasks.Create(app.NewTaskInput{Prompt: "Never finishes\n[[mock-await developer=9]]"})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the developer step to run", func() bool {
		st, _ := a.runSvc.Status()
		return len(st.Running) == 1 && st.Running[0].TaskID == tk.ID && st.Running[0].Role == task.RoleDeveloper &&
			st.Running[0].Resources.Processes > 0
	})
	return tk
}

// TestAppCloseStopsEverythingBeforeTheStore runs the app's real composition
// without a window: a task whose developer never finishes by itself is
// running when the app closes. Close must stop the step (its whole process
// tree), record the task as interrupted with its work kept, leave no
// goroutine of the app behind, never touch the store after closing it,
// release the runner lock, and do nothing the second time.
func TestAppCloseStopsEverythingBeforeTheStore(t *testing.T) {
	before := ourGoroutines()
	data := newDataRoot(t)
	var logs syncBuffer
	a := openApp(t, data, &logs)
	var hinted sync.WaitGroup
	hinted.Add(1)
	var once sync.Once
	a.hints.add(func() { once.Do(hinted.Done) }) // as the tray and the notifier join
	a.start()

	tk := startEndlessTask(t, a)
	exs, err := a.store.Executions(context.Background(), tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	dev := exs[len(exs)-1]
	if dev.PID <= 0 {
		t.Fatalf("developer step has no pid: %+v", dev)
	}
	// Step changes and the status watcher reached the hints (the tray's and
	// the notifier's refresh).
	hinted.Wait()

	if err := a.Close(); err != nil {
		t.Fatalf("close: %v\n%s", err, logs.String())
	}
	if left := newGoroutines(before); len(left) > 0 {
		t.Fatalf("%d goroutine(s) of the app outlived Close:\n%s", len(left), strings.Join(left, "\n\n"))
	}
	for _, pid := range append(dev.PIDs, dev.PID) {
		if pid > 0 && runner.Alive(pid) {
			t.Fatalf("pid %d of the developer step outlived Close", pid)
		}
	}
	if strings.Contains(logs.String(), "database is closed") {
		t.Fatalf("the store was used after it closed:\n%s", logs.String())
	}
	if _, err := a.store.GetTask(context.Background(), tk.ID); err == nil {
		t.Fatal("the store is still open after Close")
	}
	if err := a.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}

	// What the next start sees: the task stopped as interrupted, its
	// worktree kept, and the runner lock free.
	paths := dataroot.Paths{Root: data}
	lock, err := runner.AcquireLock(paths.RunnerLock())
	if err != nil {
		t.Fatalf("the runner lock is still held after Close: %v", err)
	}
	lock.Release()
	st, err := store.Open(context.Background(), paths.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.GetTask(context.Background(), tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != task.StatusStopped || got.Error != pipeline.InterruptedMessage {
		t.Fatalf("task after close: %s %q", got.Status, got.Error)
	}
	if _, err := os.Stat(got.WorktreePath); got.WorktreePath == "" || err != nil {
		t.Fatalf("the interrupted task's worktree %q is gone: %v", got.WorktreePath, err)
	}
}

// TestAppSecondProcessReadsAlongside opens the same data root twice: the
// second App does not get the runner lock, so it reads, adds tasks and
// stops them through the store while the first runs the queue.
func TestAppSecondProcessReadsAlongside(t *testing.T) {
	data := newDataRoot(t)
	var logsA, logsB syncBuffer
	a := openApp(t, data, &logsA)
	a.start()
	b := openApp(t, data, &logsB)
	b.start()

	st, err := b.runSvc.Status()
	if err != nil || st.LockHeld || !strings.Contains(st.LockMessage, "already running the queue") {
		t.Fatalf("second app's status %+v %v", st, err)
	}
	if st, _ := a.runSvc.Status(); !st.LockHeld {
		t.Fatalf("first app does not hold the lock: %+v", st)
	}
	if tools, err := b.settings.ToolHealth(); err != nil || len(tools) != 0 {
		t.Fatalf("tools of the reading app: %v %v", tools, err)
	}

	tk, err := b.tasks.Create(app.NewTaskInput{Prompt: "Added by the reader\n[[mock-await developer=9]]"})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the reader to see the task run", func() bool {
		st, _ := b.runSvc.Status()
		return len(st.Running) == 1 && st.Running[0].TaskID == tk.ID && st.Running[0].Role == task.RoleDeveloper
	})
	if err := b.runSvc.Stop(tk.ID); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the runner to stop the task", func() bool {
		got, _ := a.store.GetTask(context.Background(), tk.ID)
		return got.Status == task.StatusStopped
	})
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	// The reader's Close released nothing of the runner's: the queue goes on.
	if st, _ := a.runSvc.Status(); !st.LockHeld {
		t.Fatalf("first app lost the lock: %+v", st)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestAppOpenCloseWithoutWindow: an App that never showed its window (Run
// failed, say) closes cleanly, starts nothing after Close, and a bad data
// root is an error that opens nothing.
func TestAppOpenCloseWithoutWindow(t *testing.T) {
	before := ourGoroutines()
	data := newDataRoot(t)
	var logs syncBuffer
	a := openApp(t, data, &logs)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	a.start() // after Close: nothing starts
	a.onShutdown(context.Background())
	if left := newGoroutines(before); len(left) > 0 {
		t.Fatalf("goroutines after Close:\n%s", strings.Join(left, "\n\n"))
	}
	lock, err := runner.AcquireLock(dataroot.Paths{Root: data}.RunnerLock())
	if err != nil {
		t.Fatalf("runner lock held after Close: %v", err)
	}
	lock.Release()

	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if a, err := Open(context.Background(), Options{DataDir: file}); err == nil {
		a.Close()
		t.Fatal("opened a data root that is a file")
	}
}

// TestAppQuitsWhenItsContextEnds: a signal (Open's context ending) quits
// as the tray's Quit does: running steps stop first, then the window quits.
func TestAppQuitsWhenItsContextEnds(t *testing.T) {
	data := newDataRoot(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := Open(ctx, Options{DataDir: data, Exe: os.Args[0]})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	win := &testWindow{visible: true}
	a.desk.d.Window = win
	a.start()
	tk := startEndlessTask(t, a)
	cancel()
	waitFor(t, "the window to quit", func() bool { return slices.Contains(win.log(), "quit") })
	// The steps were stopped before the window was asked to quit.
	got, err := a.store.GetTask(context.Background(), tk.ID)
	if err != nil || got.Status != task.StatusStopped {
		t.Fatalf("task when the window quit: %s %v", got.Status, err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if a.ctx.Err() == nil {
		t.Fatal("the app's context is still live after Close")
	}
}

// gatedRun is the app's RunControl with a gate for the status watcher: once
// armed, Running blocks until released, then reads the store, as the watcher
// does every half second.
type gatedRun struct {
	RunControl
	st      *store.Store
	armed   atomic.Bool
	entered chan struct{}
	release chan struct{}
	read    chan error
}

func (g *gatedRun) Running() []string {
	if g.armed.CompareAndSwap(true, false) {
		close(g.entered)
		<-g.release
		_, err := g.st.ListTasks(context.Background(), store.Filter{Limit: 1})
		g.read <- err
	}
	return g.RunControl.Running()
}

// closeParked reports whether a goroutine is parked in a WaitGroup's Wait
// called from (*App).Close.
func closeParked() bool {
	for _, g := range ourGoroutines() {
		if strings.Contains(g, "[sync.WaitGroup.Wait") && strings.Contains(g, "shell.(*App).Close") {
			return true
		}
	}
	return false
}

// TestAppCloseWaitsForItsGoroutines holds the status watcher inside a read
// while the app closes: Close must wait for it (it may not return, nor close
// the store, before the watcher is done).
func TestAppCloseWaitsForItsGoroutines(t *testing.T) {
	data := newDataRoot(t)
	// Another process runs the queue: this app's queue loop is nothing, so
	// the watcher is the one goroutine Close has to wait for here.
	lock, err := runner.AcquireLock(dataroot.Paths{Root: data}.RunnerLock())
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	var logs syncBuffer
	a := openApp(t, data, &logs)
	g := &gatedRun{RunControl: a.run, st: a.store, entered: make(chan struct{}), release: make(chan struct{}), read: make(chan error, 1)}
	a.run = g
	a.start()
	g.armed.Store(true)
	<-g.entered // the watcher's next check is held in Running

	closed := make(chan error, 1)
	go func() { closed <- a.Close() }()
	waitFor(t, "Close to wait for its goroutines", func() bool {
		select {
		case err := <-closed:
			t.Fatalf("Close returned (%v) while the status watcher was still running", err)
		default:
		}
		return closeParked()
	})
	close(g.release)
	if err := <-g.read; err != nil {
		t.Fatalf("the watcher's read failed: the store closed under it: %v", err)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
}
