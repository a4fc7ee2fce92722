package shell

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func TestTrayHostAvailable(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+t.TempDir()+"/no-bus")
	if TrayHostAvailable(context.Background()) {
		t.Fatal("host found without a session bus")
	}
	addr := startSessionBus(t)
	if TrayHostAvailable(context.Background()) {
		t.Fatal("host found on a bus without a watcher")
	}
	conn, _ := startWatcher(t, addr)
	if !TrayHostAvailable(context.Background()) {
		t.Fatal("watcher not found")
	}
	conn.Close()
	waitFor(t, "the watcher to leave the bus", func() bool { return !TrayHostAvailable(context.Background()) })
}

func TestDesktopBeforeClose(t *testing.T) {
	addr := startSessionBus(t)
	st := newTestStore(t)
	newDesk := func(closeToTray bool) (*Desktop, *testWindow, *atomic.Int32) {
		win := &testWindow{visible: true}
		var shutdowns atomic.Int32
		run := &testRun{file: settings.NewFile(filepath.Join(t.TempDir(), "settings.json"), host.Catalog()), st: st}
		d := NewDesktop(DesktopDeps{Store: st, Run: run, Window: win,
			Shutdown:    func() { shutdowns.Add(1) },
			CloseToTray: func() bool { return closeToTray }})
		return d, win, &shutdowns
	}

	t.Run("no tray host: the app quits after stopping its steps", func(t *testing.T) {
		d, win, shut := newDesk(true)
		if d.BeforeClose(context.Background()) || shut.Load() != 1 || !win.Visible() {
			t.Fatalf("prevented or no shutdown: shutdowns %d, window %v", shut.Load(), win.log())
		}
	})

	watcherConn, _ := startWatcher(t, addr)
	t.Run("setting on and a tray host: hide instead of quit", func(t *testing.T) {
		d, win, shut := newDesk(true)
		if !d.BeforeClose(context.Background()) {
			t.Fatal("close not prevented")
		}
		if win.Visible() || shut.Load() != 0 {
			t.Fatalf("window %v, shutdowns %d", win.log(), shut.Load())
		}
		// Quit from the tray is never turned into a hide.
		d.Quit()
		if d.BeforeClose(context.Background()) {
			t.Fatal("close prevented after Quit")
		}
		if shut.Load() != 1 || !slices.Equal(win.log(), []string{"hide", "quit"}) {
			t.Fatalf("shutdowns %d, window %v", shut.Load(), win.log())
		}
	})

	t.Run("setting off: quit", func(t *testing.T) {
		d, win, shut := newDesk(false)
		if d.BeforeClose(context.Background()) || shut.Load() != 1 || len(win.log()) != 0 {
			t.Fatalf("shutdowns %d, window %v", shut.Load(), win.log())
		}
		// A second close (Wails asks again after Quit) shuts down only once,
		// and does not quit the window a second time.
		if !d.BeforeClose(context.Background()) {
			t.Fatal("a second close quit the window again")
		}
		if shut.Load() != 1 {
			t.Fatalf("shutdown ran %d times", shut.Load())
		}
	})
	watcherConn.Close()
}

func TestDesktopTrayState(t *testing.T) {
	st := newTestStore(t)
	l := lifecycle{t, st}
	a, b := l.create("alpha"), l.create("")
	l.claim(a)
	l.claim(b)
	done := l.create("finished one")
	l.claim(done)
	l.to(done, task.StatusDone, "")
	asking := l.create("asks")
	l.claim(asking)
	l.ask(asking, "Which?")

	run := &testRun{file: settings.NewFile(filepath.Join(t.TempDir(), "settings.json"), host.Catalog()), st: st, running: []string{b}}
	win := &testWindow{visible: false}
	var logs bytes.Buffer
	d := NewDesktop(DesktopDeps{Store: st, Run: run, Window: win, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	got := d.TrayState()
	// The task this process runs comes first; an untitled task shows its prompt.
	want := TrayState{WindowVisible: false, RunnerEnabled: true, Running: []RunningTask{{b, "do"}, {a, "alpha"}}, Review: 1, Attention: 1}
	if !got.equal(want) {
		t.Fatalf("state\n%+v\nwant\n%+v", got, want)
	}

	st.Close()
	for range 2 {
		if got := d.TrayState(); got.Review != 0 || !slices.Equal(got.Running, []RunningTask{{b, b}}) {
			t.Fatalf("state with a closed store %+v", got)
		}
	}
	if c := strings.Count(logs.String(), "tray: read tasks"); c != 1 {
		t.Fatalf("store error logged %d times:\n%s", c, logs.String())
	}
}

func TestDesktopActionFailuresAreLoggedAndChangeNothing(t *testing.T) {
	st := newTestStore(t)
	l := lifecycle{t, st}
	pending := l.create("waiting")
	run := &testRun{file: settings.NewFile(filepath.Join(t.TempDir(), "settings.json"), host.Catalog()), st: st}
	rec := &app.RecordingEmitter{}
	var logs bytes.Buffer
	d := NewDesktop(DesktopDeps{Store: st, Run: run, Window: &testWindow{}, Emitter: rec, Log: slog.New(slog.NewTextHandler(&logs, nil))})

	d.StopTask(pending)
	if ok, err := st.StopRequested(context.Background(), pending); err != nil || ok {
		t.Fatalf("stop request stored for a pending task: %v %v", ok, err)
	}
	if !strings.Contains(logs.String(), "tray: stop task") || len(rec.Names()) != 0 {
		t.Fatalf("log %q, events %v", logs.String(), rec.Names())
	}
	d.SetRunnerEnabled(false)
	if run.Enabled() || strings.Contains(logs.String(), "set runner enabled") {
		t.Fatalf("runner enabled %v; log %q", run.Enabled(), logs.String())
	}
	// A settings file that cannot be written: logged, nothing else happens.
	run.file = settings.NewFile(filepath.Join(t.TempDir(), "missing", "dir", "settings.json"), host.Catalog())
	d.SetRunnerEnabled(false)
	if !strings.Contains(logs.String(), "tray: set runner enabled") {
		t.Fatalf("failure not logged: %q", logs.String())
	}
}

func TestWailsRuntimeBeforeStartup(t *testing.T) {
	w := newWailsRuntime(true)
	w.Hide()
	if w.Visible() {
		t.Fatal("visible after Hide")
	}
	w.Show()
	if !w.Visible() {
		t.Fatal("hidden after Show")
	}
	// No Wails context yet: nothing to quit or emit to, no dialog, and no crash.
	w.Quit()
	w.Emit(app.EventTasksChanged)
	if dir, err := w.PickDirectory("Working directory"); dir != "" || !errors.Is(err, errNoWindow) {
		t.Fatalf("picker before startup: %q %v", dir, err)
	}
}

// seedQueue fills a store with a realistic backlog: n tasks, most of them
// done and waiting for review, some pending, a few asking, one running.
func seedQueue(b *testing.B, n int) (*testRun, lifecycle) {
	b.Helper()
	st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "boof.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	l := lifecycle{b, st}
	for i := range n {
		id := l.create("task " + strconv.Itoa(i))
		switch {
		case i%10 < 8:
			l.claim(id)
			l.to(id, task.StatusDone, "")
		case i%10 == 8 && i%20 == 8:
			l.claim(id)
			l.ask(id, "Which one?")
		}
	}
	l.claim(l.create("running now"))
	return &testRun{file: settings.NewFile(filepath.Join(b.TempDir(), "settings.json"), host.Catalog()), st: st}, l
}

// BenchmarkDesktopTrayState is the cost of one tray refresh's read over a
// 1,000-task store (the tray does one every 2 s and on each hint).
func BenchmarkDesktopTrayState(b *testing.B) {
	run, _ := seedQueue(b, 1000)
	d := NewDesktop(DesktopDeps{Store: run.st, Run: run, Window: &testWindow{}})
	b.ResetTimer()
	for b.Loop() {
		if st := d.TrayState(); len(st.Running) == 0 {
			b.Fatal("no running task")
		}
	}
}

func TestHintEmitter(t *testing.T) {
	rec := &app.RecordingEmitter{}
	var hints atomic.Int32
	h := HintEmitter{Next: rec, On: []func(){func() { hints.Add(1) }}}
	h.Emit(app.EventTasksChanged)
	h.Emit(app.EventTaskOutputPrefix+"x", 1)
	h.Emit(app.EventRunnerStatus)
	if hints.Load() != 2 || len(rec.Names()) != 3 {
		t.Fatalf("hints %d, events %v", hints.Load(), rec.Names())
	}
}

// The Review queue counts the pull requests on the forges that wait for
// the tokens' users' review beside the finished tasks.
func TestDesktopTrayCountsReviewRequests(t *testing.T) {
	st := newTestStore(t)
	l := lifecycle{t, st}
	done := l.create("finished one")
	l.claim(done)
	l.to(done, task.StatusDone, "")
	run := &testRun{file: settings.NewFile(filepath.Join(t.TempDir(), "settings.json"), host.Catalog()), st: st}
	d := NewDesktop(DesktopDeps{Store: st, Run: run, Window: &testWindow{}, ReviewRequests: func() int { return 3 }})
	if got := d.TrayState(); got.Review != 4 {
		t.Fatalf("review queue = %d, want 1 finished task + 3 review requests", got.Review)
	}
}
