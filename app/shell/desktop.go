package shell

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// RunControl is the runner as the tray sees it; runControl implements it
// over the bound RunService and this process's hold on the queue.
type RunControl interface {
	// Enabled reports whether the runner takes tasks from the queue.
	Enabled() bool
	// SetEnabled pauses (false) or resumes (true) the queue, saves the
	// setting and tells the UI (runner:status); it returns the error that
	// kept the setting from being saved.
	SetEnabled(on bool) error
	// Running returns the ids of the tasks running now: this process's, or
	// the store's ongoing ones when another process runs the queue.
	Running() []string
	// StopTask durably asks the runner to stop an ongoing task (its work is
	// kept); it returns the store's error when the task is not ongoing.
	StopTask(id string) error
	// Paused returns the tools paused by a usage limit now.
	Paused() []app.PausedTool
	// ResumeTool ends a tool's usage-limit pause now; it returns an error
	// when the tool is not paused.
	ResumeTool(tool string) error
}

// TaskReader is the part of the store the desktop reads; *store.Store has it.
type TaskReader interface {
	ListTasks(ctx context.Context, f store.Filter) ([]task.Task, error)
}

// Window is the main window as the tray controls it.
type Window interface {
	// Show shows the window and brings it forward.
	Show()
	// Hide hides the window; the app keeps running.
	Hide()
	// Visible reports whether the window was last shown rather than hidden.
	Visible() bool
	// Quit ends the application.
	Quit()
}

// Nav asks the window to show a view; *app.Navigator has it.
type Nav interface {
	// Open asks the window to show r.
	Open(r app.UIRequest) app.UIRequest
	// Review opens the Review screen on a task ("": the oldest waiting).
	Review(id string) app.UIRequest
	// Task opens a task where its state says the user acts on it.
	Task(id string) app.UIRequest
}

// DesktopDeps are what a Desktop is built from. Store, Run and Window are
// required; the others have defaults.
type DesktopDeps struct {
	Store   TaskReader
	Run     RunControl
	Window  Window
	Emitter app.Emitter
	// Nav shows views in the window; nil means none (the window is only
	// shown).
	Nav Nav
	// Stopping is told each stop the tray asked for, with the task's title
	// (the notifier says when it is stopped); nil means nobody.
	Stopping func(id, title string)
	// Shutdown stops running steps cleanly before the app quits (the tray's
	// Quit, or a window close that is not turned into a hide). It is called
	// at most once.
	Shutdown func()
	// CloseToTray is the setting "closing the window hides it to the tray";
	// nil means on.
	CloseToTray func() bool
	// TrayHost reports whether a tray host is on the session bus; nil means
	// TrayHostAvailable.
	TrayHost func(ctx context.Context) bool
	// QueueCount counts the merge queue's active entries for the tray; nil
	// means none.
	QueueCount func(ctx context.Context) (int, error)
	// ReviewRequests counts the pull requests on the forges that wait for
	// the tokens' users' review (the Review queue counts them too); nil
	// means none.
	ReviewRequests func() int
	// Context is the app's lifetime; nil means context.Background.
	Context func() context.Context
	Log     *slog.Logger
}

// Desktop implements TrayControls and the window's close-to-tray behaviour
// on top of the runner, the store and the window.
type Desktop struct {
	d        DesktopDeps
	quitting atomic.Bool
	released atomic.Bool // a BeforeClose let the app quit
	shutOnce sync.Once

	mu      sync.Mutex
	lastErr string // last logged store error text, so a failing store logs once
}

var _ TrayControls = (*Desktop)(nil)

// trayStateLimit bounds the rows read for the tray's counts.
const trayStateLimit = 5000

// NewDesktop returns a Desktop over deps.
func NewDesktop(deps DesktopDeps) *Desktop {
	if deps.Emitter == nil {
		deps.Emitter = discard{}
	}
	if deps.Shutdown == nil {
		deps.Shutdown = func() {}
	}
	if deps.CloseToTray == nil {
		deps.CloseToTray = func() bool { return true }
	}
	if deps.TrayHost == nil {
		deps.TrayHost = TrayHostAvailable
	}
	if deps.Context == nil {
		deps.Context = context.Background
	}
	if deps.Log == nil {
		deps.Log = slog.New(slog.DiscardHandler)
	}
	if deps.Nav == nil {
		deps.Nav = noNav{}
	}
	if deps.QueueCount == nil {
		deps.QueueCount = func(context.Context) (int, error) { return 0, nil }
	}
	if deps.Stopping == nil {
		deps.Stopping = func(string, string) {}
	}
	if deps.ReviewRequests == nil {
		deps.ReviewRequests = func() int { return 0 }
	}
	return &Desktop{d: deps}
}

// TrayState reads what the tray shows. A store error is logged (once per
// distinct message) and leaves the counts at zero.
func (d *Desktop) TrayState() TrayState {
	st := TrayState{WindowVisible: d.d.Window.Visible(), RunnerEnabled: d.d.Run.Enabled(), Paused: d.d.Run.Paused()}
	ctx, cancel := context.WithTimeout(d.d.Context(), 5*time.Second)
	defer cancel()
	tasks, err := d.d.Store.ListTasks(ctx, store.Filter{
		Statuses: []task.Status{task.StatusOngoing, task.StatusActions, task.StatusDone},
		Limit:    trayStateLimit,
	})
	d.noteErr("tray: read tasks", err)
	if n, qerr := d.d.QueueCount(ctx); qerr == nil {
		st.MergeQueue = n
	} else if err == nil {
		d.noteErr("tray: read the merge queue", qerr)
	}
	st.Review = d.d.ReviewRequests()
	titles := map[string]string{}
	var ongoing []string
	for _, t := range tasks {
		switch t.Status {
		case task.StatusOngoing:
			ongoing = append(ongoing, t.ID)
			titles[t.ID] = displayTitle(t)
		case task.StatusActions:
			st.Attention++
		case task.StatusDone:
			st.Review++
		}
	}
	// Tasks this process runs come first; the store also shows tasks run by
	// another process (a headless runner), which Stop reaches durably.
	seen := map[string]bool{}
	for _, id := range append(d.d.Run.Running(), ongoing...) {
		if seen[id] {
			continue
		}
		seen[id] = true
		title := titles[id]
		if title == "" {
			title = id
		}
		st.Running = append(st.Running, RunningTask{ID: id, Title: title})
	}
	return st
}

func (d *Desktop) noteErr(what string, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err == nil {
		d.lastErr = ""
		return
	}
	if msg := err.Error(); msg != d.lastErr {
		d.lastErr = msg
		d.d.Log.Warn(what, "err", err)
	}
}

// ToggleWindow hides a shown window and shows a hidden one.
func (d *Desktop) ToggleWindow() {
	if d.d.Window.Visible() {
		d.d.Window.Hide()
		return
	}
	d.d.Window.Show()
}

// ShowWindow shows the window and brings it forward as it is.
func (d *Desktop) ShowWindow() {
	d.d.Window.Show()
	d.d.Nav.Open(app.UIRequest{View: app.ViewWindow})
}

// NewTask shows the window on the New task form, its prompt focused.
func (d *Desktop) NewTask() {
	d.d.Window.Show()
	d.d.Nav.Open(app.UIRequest{View: app.ViewNewTask})
}

// ShowReview shows the window on the Review screen with the oldest finished
// task waiting for review (none: the screen's empty state).
func (d *Desktop) ShowReview() { d.Review("") }

// ShowMergeQueue shows the window on the Merge queue screen.
func (d *Desktop) ShowMergeQueue() {
	d.d.Window.Show()
	d.d.Nav.Open(app.UIRequest{View: app.ViewMergeQueue})
}

// Review shows the window on the Review screen with task id; an unknown id
// opens the screen with a message saying so.
func (d *Desktop) Review(id string) {
	d.d.Window.Show()
	d.d.Nav.Review(id)
}

// OpenTask shows the window on the task, where its state says the user
// acts on it (a click on its notification).
func (d *Desktop) OpenTask(id string) {
	d.d.Window.Show()
	d.d.Nav.Task(id)
}

// Launch does what a later launch of the app asked (see Instance).
func (d *Desktop) Launch(l Launch) {
	switch {
	case l.NewTask:
		d.NewTask()
	case l.Review:
		d.Review(l.ReviewID)
	case l.Hidden:
		// Start at login while the app already runs: leave it as it is.
	default:
		d.ShowWindow()
	}
}

// SetRunnerEnabled pauses or resumes the runner; a failure is logged.
func (d *Desktop) SetRunnerEnabled(on bool) {
	if err := d.d.Run.SetEnabled(on); err != nil {
		d.d.Log.Error("tray: set runner enabled", "on", on, "err", err)
	}
}

// StopTask asks the runner to stop the task (its work is kept) and tells
// Stopping, so the user hears when it stopped; a failure is logged.
func (d *Desktop) StopTask(id string) {
	title := id
	for _, r := range d.TrayState().Running {
		if r.ID == id {
			title = r.Title
		}
	}
	if err := d.d.Run.StopTask(id); err != nil {
		d.d.Log.Error("tray: stop task", "task", id, "err", err)
		return
	}
	d.d.Stopping(id, title)
	d.d.Emitter.Emit(app.EventTasksChanged)
}

// Quit stops running steps cleanly, then ends the app.
func (d *Desktop) Quit() {
	d.quitting.Store(true)
	d.shutdown()
	d.d.Window.Quit()
}

func (d *Desktop) shutdown() { d.shutOnce.Do(d.d.Shutdown) }

// BeforeClose is Wails' OnBeforeClose. When the close-to-tray setting is on
// and a tray host exists, it hides the window and returns true (prevent the
// close). Otherwise, and always once Quit was asked, it stops running steps
// and returns false so the app quits. Wails may ask again while the app
// ends (on a signal both its own handler and Quit ask): only the first
// answer is false, so the window is quit once.
func (d *Desktop) BeforeClose(ctx context.Context) (prevent bool) {
	if !d.quitting.Load() && d.d.CloseToTray() && d.d.TrayHost(ctx) {
		d.d.Window.Hide()
		return true
	}
	d.quitting.Store(true)
	d.shutdown()
	return !d.released.CompareAndSwap(false, true)
}

// displayTitle is a task's DisplayTitle, else its id.
func displayTitle(t task.Task) string {
	if s := strings.TrimSpace(t.DisplayTitle()); s != "" {
		return s
	}
	return t.ID
}

// noNav is the Nav of a desktop without a window front end.
type noNav struct{}

func (noNav) Open(r app.UIRequest) app.UIRequest { return r }
func (noNav) Review(string) app.UIRequest        { return app.UIRequest{View: app.ViewReview} }
func (noNav) Task(string) app.UIRequest          { return app.UIRequest{View: app.ViewTask} }
