package shell

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/godbus/dbus/v5"
)

// testRun is the RunControl of the tests: the real settings file holds
// runner.enabled and Stop goes through the runner's durable stop request.
type testRun struct {
	file *settings.File
	st   *store.Store

	mu      sync.Mutex
	running []string
}

func (r *testRun) Enabled() bool {
	s, err := r.file.Load()
	return err == nil && s.Runner.Enabled
}

func (r *testRun) SetEnabled(on bool) error {
	_, err := r.file.Set("runner.enabled", strconv.FormatBool(on))
	return err
}

func (r *testRun) Running() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.running)
}

func (r *testRun) StopTask(id string) error {
	return runner.Stop(context.Background(), r.st, id)
}

// Paused reads the store's pauses as the real runControl does.
func (r *testRun) Paused() []app.PausedTool {
	if r.st == nil {
		return nil
	}
	ps, _ := app.PausedTools(context.Background(), r.st, time.Now(), time.Local)
	return ps
}

// ResumeTool ends the pause through the bound service, as the real
// runControl does.
func (r *testRun) ResumeTool(tool string) error {
	svc := app.NewRunService(r.st, app.LockedRunner(r.st, "", nil), r.file, nil, &app.RecordingEmitter{}, context.Background)
	_, err := svc.ResumeTool(tool)
	return err
}

// testWindow stands in for the Wails window (which needs a display): it
// records what it was asked.
type testWindow struct {
	mu      sync.Mutex
	visible bool
	calls   []string
}

func (w *testWindow) Show()         { w.record("show", true) }
func (w *testWindow) Hide()         { w.record("hide", false) }
func (w *testWindow) Quit()         { w.record("quit", w.Visible()) }
func (w *testWindow) Visible() bool { w.mu.Lock(); defer w.mu.Unlock(); return w.visible }

func (w *testWindow) record(call string, visible bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.visible = visible
	w.calls = append(w.calls, call)
}

func (w *testWindow) log() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.calls)
}

// squarePNG is a test icon whose size tells which one the tray shows.
func squarePNG(t *testing.T, size int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// iconWidth reads the tray's IconPixmap as a tray host does.
func iconWidth(t *testing.T, conn *dbus.Conn, sender string, item dbus.ObjectPath) int32 {
	t.Helper()
	v, err := conn.Object(sender, item).GetProperty("org.kde.StatusNotifierItem.IconPixmap")
	if err != nil {
		t.Fatalf("get IconPixmap: %v", err)
	}
	var px []struct {
		W, H int32
		Pix  []byte
	}
	if err := dbus.Store([]any{v.Value()}, &px); err != nil || len(px) == 0 {
		t.Fatalf("decode IconPixmap %v: %v", v, err)
	}
	if len(px[0].Pix) != int(px[0].W*px[0].H*4) {
		t.Fatalf("pixmap %dx%d has %d bytes", px[0].W, px[0].H, len(px[0].Pix))
	}
	return px[0].W
}

func labels(items []menuEntry) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}

// TestTray runs every tray scenario against one tray: the tray library
// keeps global state, so a process has one tray.
func TestTray(t *testing.T) {
	addr := startSessionBus(t)
	_, w := startWatcher(t, addr)
	bus := connectBus(t, addr)
	st := newTestStore(t)
	l := lifecycle{t, st}
	settingsPath := filepath.Join(t.TempDir(), "settings.json")
	run := &testRun{file: settings.NewFile(settingsPath, host.Catalog()), st: st}
	win := &testWindow{visible: true}
	rec := &app.RecordingEmitter{}
	var shutdowns, stopping []string
	var shutMu sync.Mutex
	nav := app.NewNavigator(st, rec, context.Background, nil)
	if _, err := app.NewNavService(nav).Ready(); err != nil { // the front end has painted
		t.Fatal(err)
	}
	desk := NewDesktop(DesktopDeps{Store: st, Run: run, Window: win, Emitter: rec, Nav: nav,
		QueueCount: func(ctx context.Context) (int, error) { return app.QueueCount(ctx, st) },
		Stopping: func(id, title string) {
			shutMu.Lock()
			defer shutMu.Unlock()
			stopping = append(stopping, id+" "+title)
		},
		Shutdown: func() {
			shutMu.Lock()
			defer shutMu.Unlock()
			shutdowns = append(shutdowns, "shutdown with window calls "+strconv.Itoa(len(win.log())))
		}})
	const idle, running, attention = 16, 22, 24
	tray, err := StartTray(desk, TrayOptions{Icons: TrayIcons{
		Idle:      squarePNG(t, idle, color.RGBA{0, 128, 0, 255}),
		Running:   squarePNG(t, running, color.RGBA{0, 0, 255, 255}),
		Attention: squarePNG(t, attention, color.RGBA{255, 128, 0, 255}),
	}, Interval: time.Hour}) // store changes reach the tray through Hint
	if errors.Is(err, ErrTrayStarted) {
		t.Skip("the tray library runs once per process (go test -count above 1)")
	}
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	t.Cleanup(func() {
		if !closed {
			tray.Close()
		}
	})

	var sender string
	var item, menu dbus.ObjectPath
	waitFor(t, "the item to register with the watcher", func() bool {
		s, p, ok := w.registered()
		sender, item = s, dbus.ObjectPath(p)
		return ok
	})
	menu = menuPath(t, bus, sender, item)
	menuPathOf := func(*testing.T) dbus.ObjectPath { return menu }
	entries := func() []menuEntry { return readMenu(t, bus, sender, menu) }
	find := func(label string) menuEntry {
		t.Helper()
		for _, e := range entries() {
			if e.Label == label {
				return e
			}
		}
		t.Fatalf("no menu item %q in %q", label, labels(entries()))
		return menuEntry{}
	}
	click := func(label string) { t.Helper(); clickMenu(t, bus, sender, menu, find(label).ID) }
	// waitLabel returns the item once the menu shows it, read again after
	// the refresh under way has finished (its submenu complete). A subtest
	// changes the runner's list and the store in separate steps, and a
	// refresh that a click queued can show a state between them after the
	// label first appeared: the item is then waited for again, and the entry
	// returned is the one the successful read found.
	waitLabel := func(label string) menuEntry {
		t.Helper()
		var found menuEntry
		shown := func() bool {
			for _, e := range entries() {
				if e.Label == label {
					found = e
					return true
				}
			}
			return false
		}
		waitFor(t, "menu item "+label, shown)
		tray.IconState() // waits for the refresh that changed the label to finish
		waitFor(t, "menu item "+label+" after its refresh", shown)
		return found
	}

	t.Run("registers its item and menu", func(t *testing.T) {
		if item != "/StatusNotifierItem" {
			t.Fatalf("registered path %q", item)
		}
		title, err := bus.Object(sender, item).GetProperty("org.kde.StatusNotifierItem.Title")
		if err != nil || title.Value() != "Boof Runner" {
			t.Fatalf("Title %v %v", title, err)
		}
		want := []string{"Hide window", "New task…", "Pause runner", "Stop running task", "Review queue (0 waiting)", "Merge queue (0)", "Quit"}
		waitFor(t, "the first refresh", func() bool { return slices.Equal(labels(entries()), want) })
		if find("Stop running task").Enabled {
			t.Fatal("Stop is enabled while idle")
		}
		if got := iconWidth(t, bus, sender, item); got != idle || tray.IconState() != IconIdle {
			t.Fatalf("icon %d (%s), want idle", got, tray.IconState())
		}
	})

	t.Run("show and hide window", func(t *testing.T) {
		click("Hide window")
		waitLabel("Show window")
		if win.Visible() {
			t.Fatal("window still visible")
		}
	})

	t.Run("new task shows the window and opens the form", func(t *testing.T) {
		click("New task…")
		waitFor(t, "ui:open new-task", func() bool { return lastOpen(rec).View == app.ViewNewTask })
		if !win.Visible() {
			t.Fatal("window not shown")
		}
		waitLabel("Hide window")
	})

	t.Run("pause and resume runner", func(t *testing.T) {
		click("Pause runner")
		waitLabel("Resume runner")
		if enabledInFile(t, settingsPath) {
			t.Fatal("settings file still has runner.enabled true")
		}
		click("Resume runner")
		waitLabel("Pause runner")
		if !enabledInFile(t, settingsPath) {
			t.Fatal("settings file has runner.enabled false after resume")
		}
	})

	t.Run("a paused tool is named with its reset and resumed from the menu", func(t *testing.T) {
		ctx := context.Background()
		until := time.Now().Add(90 * time.Minute)
		if _, err := st.PauseTool(ctx, task.ToolPause{Tool: "claude-code", Until: until, Reason: "usage limit"}); err != nil {
			t.Fatal(err)
		}
		tray.Hint()
		want := run.Paused()[0].Text
		if !strings.HasPrefix(want, "claude-code paused until ") || !strings.HasSuffix(want, "(usage limit)") ||
			(until.Local().YearDay() == time.Now().Local().YearDay() && want != "claude-code paused until "+until.Local().Format("15:04")+" (usage limit)") {
			t.Fatalf("pause text %q", want)
		}
		got := waitLabel(want)
		if got.Enabled {
			t.Fatal("the paused line is clickable")
		}
		ls := labels(entries())
		if i := slices.Index(ls, want); i < 1 || ls[i-1] != "Pause runner" || ls[i+1] != "Resume claude-code now" {
			t.Fatalf("menu %q: the pause line and its Resume item belong after Pause runner", ls)
		}
		tip, err := bus.Object(sender, item).GetProperty("org.kde.StatusNotifierItem.ToolTip")
		if err != nil || !strings.Contains(fmt.Sprint(tip.Value()), want) {
			t.Fatalf("tooltip %v %v does not say %q", tip, err, want)
		}
		click("Resume claude-code now")
		waitFor(t, "the pause to end in the store", func() bool {
			ps, err := st.ToolPauses(ctx, time.Now())
			return err == nil && len(ps) == 0
		})
		tray.Hint()
		waitFor(t, "the pause line to go", func() bool {
			ls := labels(entries())
			return !slices.Contains(ls, want) && !slices.Contains(ls, "Resume claude-code now")
		})
	})

	var runningID string
	t.Run("stop running task", func(t *testing.T) {
		runningID = l.create("Refactor the parser")
		l.claim(runningID)
		tray.Hint()
		stop := waitLabel("Stop “Refactor the parser”")
		if !stop.Enabled {
			t.Fatal("Stop is disabled while a task runs")
		}
		// IconState waits for the refresh in progress, which sets the icon.
		if state := tray.IconState(); state != IconRunning {
			t.Fatalf("icon state %s, want running", state)
		}
		if got := iconWidth(t, bus, sender, item); got != running {
			t.Fatalf("icon %d, want running", got)
		}
		click("Stop “Refactor the parser”")
		waitFor(t, "a durable stop request", func() bool {
			ok, err := st.StopRequested(context.Background(), runningID)
			return err == nil && ok
		})
	})

	t.Run("review queue and attention", func(t *testing.T) {
		l.to(runningID, task.StatusDone, "")
		tray.Hint()
		waitLabel("Review queue (1 waiting)")
		if find("Stop running task").Enabled {
			t.Fatal("Stop is enabled after the task finished")
		}
		if state := tray.IconState(); state != IconIdle {
			t.Fatalf("icon state %s, want idle", state)
		}
		if got := iconWidth(t, bus, sender, item); got != idle {
			t.Fatalf("icon %d, want idle", got)
		}
		asking := l.create("Pick a database")
		l.claim(asking)
		l.ask(asking, "Which one?")
		tray.Hint()
		waitFor(t, "the attention icon", func() bool { return tray.IconState() == IconAttention })
		if got := iconWidth(t, bus, sender, item); got != attention {
			t.Fatalf("icon %d, want attention", got)
		}
		click("Review queue (1 waiting)")
		waitFor(t, "ui:open review", func() bool { return lastOpen(rec).View == app.ViewReview })
		if got := lastOpen(rec); got.TaskID != runningID || got.Message != "" {
			t.Fatalf("review request %+v, want the finished task %s", got, runningID)
		}
	})

	t.Run("merge queue counts its entries and opens its screen", func(t *testing.T) {
		click("Hide window")
		waitLabel("Show window")
		if _, err := st.Enqueue(context.Background(), []store.NewQueueEntry{{TaskID: runningID, Repo: t.TempDir(), Target: "main", Strategy: "merge"}}); err != nil {
			t.Fatal(err)
		}
		tray.Hint()
		click(waitLabel("Merge queue (1)").Label)
		waitFor(t, "ui:open merge-queue", func() bool { return lastOpen(rec).View == app.ViewMergeQueue })
		if !win.Visible() {
			t.Fatal("the window is not shown on the Merge queue screen")
		}
		waitLabel("Hide window")
		if _, _, err := st.Dequeue(context.Background(), runningID); err != nil {
			t.Fatal(err)
		}
		tray.Hint()
		waitLabel("Merge queue (0)")
	})

	t.Run("stop lists each running task in a submenu", func(t *testing.T) {
		first, second := l.create("Write the docs"), l.create("Fix the flaky test")
		l.claim(first)
		l.claim(second)
		run.mu.Lock()
		run.running = []string{first, second}
		run.mu.Unlock()
		tray.Hint()
		menu := waitLabel("Stop a running task (2 running)")
		if slices.Contains(labels(entries()), "Stop running task") {
			t.Fatal("the single Stop item is shown beside the submenu")
		}
		if got := labels(menu.Sub); !slices.Equal(got, []string{"Stop “Write the docs”", "Stop “Fix the flaky test”"}) {
			t.Fatalf("submenu %q", got)
		}
		clickMenu(t, bus, sender, menuPathOf(t), menu.Sub[1].ID)
		waitFor(t, "a durable stop request for the second task", func() bool {
			ok, err := st.StopRequested(context.Background(), second)
			return err == nil && ok
		})
		if ok, _ := st.StopRequested(context.Background(), first); ok {
			t.Fatal("the first task was asked to stop too")
		}
		want := []string{runningID + " Refactor the parser", second + " Fix the flaky test"}
		var got []string
		waitFor(t, "the stops told", func() bool {
			shutMu.Lock()
			defer shutMu.Unlock()
			got = slices.Clone(stopping)
			return len(got) >= len(want)
		})
		if !slices.Equal(got, want) {
			t.Fatalf("stops told %q, want %q", got, want)
		}
		run.mu.Lock()
		run.running = nil
		run.mu.Unlock()
		l.to(first, task.StatusStopped, "")
		l.to(second, task.StatusStopped, "")
		tray.Hint()
		waitLabel("Stop running task")
	})

	t.Run("a left click on the icon toggles the window", func(t *testing.T) {
		if !win.Visible() {
			t.Fatal("window hidden before the click")
		}
		if call := bus.Object(sender, item).Call("org.kde.StatusNotifierItem.Activate", 0, int32(0), int32(0)); call.Err != nil {
			t.Fatalf("Activate: %v", call.Err)
		}
		waitLabel("Show window")
		if win.Visible() {
			t.Fatal("window still visible after Activate")
		}
		if call := bus.Object(sender, item).Call("org.kde.StatusNotifierItem.Activate", 0, int32(0), int32(0)); call.Err != nil {
			t.Fatalf("Activate: %v", call.Err)
		}
		waitLabel("Hide window")
		v, err := bus.Object(sender, item).GetProperty("org.kde.StatusNotifierItem.ItemIsMenu")
		if err != nil || v.Value() != false {
			t.Fatalf("ItemIsMenu %v %v: hosts would not send Activate", v, err)
		}
	})

	t.Run("quit stops running steps first", func(t *testing.T) {
		before := len(win.log())
		click("Quit")
		waitFor(t, "the window to quit", func() bool { return slices.Contains(win.log(), "quit") })
		shutMu.Lock()
		got := slices.Clone(shutdowns)
		shutMu.Unlock()
		if want := []string{"shutdown with window calls " + strconv.Itoa(before)}; !slices.Equal(got, want) {
			t.Fatalf("shutdowns %q, want %q (before the quit)", got, want)
		}
		// Wails asks OnBeforeClose after Quit: it must not hide to the tray.
		if desk.BeforeClose(context.Background()) {
			t.Fatal("BeforeClose prevented the quit")
		}
		shutMu.Lock()
		defer shutMu.Unlock()
		if len(shutdowns) != 1 {
			t.Fatalf("shutdown ran %d times", len(shutdowns))
		}
	})

	t.Run("close takes the item off the bus", func(t *testing.T) {
		tray.Close()
		closed = true
		var has bool
		if err := bus.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, sender).Store(&has); err != nil || has {
			t.Fatalf("tray still on the bus: %v %v", has, err)
		}
	})
}

func enabledInFile(t *testing.T, path string) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runner struct {
			Enabled *bool `json:"enabled"`
		} `json:"runner"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || doc.Runner.Enabled == nil {
		t.Fatalf("settings file %s: %v", b, err)
	}
	return *doc.Runner.Enabled
}

func TestStartTrayWithoutSessionBus(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+t.TempDir()+"/no-bus")
	tray, err := StartTray(NewDesktop(DesktopDeps{Store: newTestStore(t), Run: &testRun{}, Window: &testWindow{}}), TrayOptions{})
	if !errors.Is(err, ErrNoSessionBus) || tray != nil {
		t.Fatalf("got %v, %v; want ErrNoSessionBus", tray, err)
	}
}

// lastOpen is the newest ui:open request recorded.
func lastOpen(rec *app.RecordingEmitter) app.UIRequest {
	ps := rec.PayloadsOf(app.EventUIOpen)
	if len(ps) == 0 || len(ps[len(ps)-1]) == 0 {
		return app.UIRequest{View: "(none)"}
	}
	r, _ := ps[len(ps)-1][0].(app.UIRequest)
	return r
}
