package shell

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"testing/fstest"
	"time"

	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Options configure Open; only DataDir and the assets matter to most callers.
type Options struct {
	// DataDir is the data root; "" means $BOOF_RUNNER_HOME or the OS data
	// directory.
	DataDir string
	// Assets is the built front end served to the window; nil means none.
	Assets fs.FS
	// AppIcon is the app's icon (PNG); the window shows it when
	// WindowIcon is nil.
	AppIcon []byte
	// WindowIcon is the window's icon (PNG). A small one (256 px) spares
	// the UI process decoding and holding the 1024 px app icon at every
	// start.
	WindowIcon []byte
	// TrayIcons are the tray's state icons.
	TrayIcons TrayIcons
	// Exe is the executable whose hidden mock.AgentCommand runs the mock
	// agent; "" means this executable.
	Exe string
	// Log receives the app's log; nil means it is discarded.
	Log *slog.Logger
	// Hidden starts the window hidden (shown from the tray); without a tray
	// host it is shown anyway.
	Hidden bool
	// Launch is what this launch asked for (--new-task, --review [ID]); the
	// window opens on it.
	Launch Launch
	// Instance is this process's claim on the data root (ClaimInstance);
	// later launches reach the app through it. nil: no single-instance
	// guard (tests).
	Instance *Instance
	// ConfigHome is where the autostart entry lives ("": $XDG_CONFIG_HOME
	// or ~/.config).
	ConfigHome string
}

// Open opens the data root (creating it when missing), its store and its
// queue (this process takes the runner lock, or reads alongside the process
// that holds it), builds the bound services, and starts the tray when the
// desktop has a session bus. Nothing runs yet: the window's start-up
// (Run) starts the queue. ctx is the app's lifetime: when it ends (a
// signal), the window quits cleanly. Close the App when done, also when Run
// was never called.
func Open(ctx context.Context, o Options) (*App, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Assets == nil {
		o.Assets = fstest.MapFS{}
	}
	if o.Exe == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("find the mock agent: %w", err)
		}
		o.Exe = exe
	}
	dataDirFlag := o.DataDir
	if o.Instance != nil {
		dataDirFlag = o.Instance.Root()
	}
	root, err := dataroot.Default(dataDirFlag)
	if err != nil {
		return nil, err
	}
	if err := dataroot.Ensure(root); err != nil {
		return nil, err
	}
	if def, err := dataroot.Default(""); err == nil && def == root {
		dataDirFlag = ""
	}
	paths := dataroot.Paths{Root: root}
	o.DataDir = root
	st, err := store.Open(ctx, paths.Database(), store.Options{AttachmentsDir: paths.Attachments()})
	if err != nil {
		return nil, err
	}
	a := &App{opts: o, log: o.Log, quitOn: ctx, store: st, window: newWailsRuntime(true), hints: &hints{}, status: newStatusWatch()}
	a.ctx, a.cancel = context.WithCancel(context.WithoutCancel(ctx))
	a.runCtx, a.stopRun = context.WithCancel(a.ctx)
	a.emit = HintEmitter{Next: a.window, On: []func(){a.hints.notify}}
	a.live = app.NewLiveOutput(a.emit, secrets.Scrub, time.Now, 0)
	hooks := app.PipelineHooks(a.live, a.emit, a.status.poke)
	feed := hooks.OnEvent
	hooks.OnEvent = func(taskID string, execID int64, e task.Event) {
		feed(taskID, execID, e)
		if w, ok := e.Data.(task.BudgetWarning); ok {
			a.notifier.BudgetWarning(taskID, w) // set before the queue starts
		}
	}
	a.queue, err = openQueue(queueOptions{ctx: ctx, paths: paths, store: st, exe: o.Exe, hooks: hooks, log: o.Log, changed: a.status.poke})
	if err != nil {
		a.cancel()
		a.live.Close()
		st.Close()
		return nil, err
	}
	svc := a.queue.services()
	if fixed, err := svc.RepairRepos(ctx); err != nil {
		o.Log.Warn("record the working directory of older tasks", "err", err)
	} else if len(fixed) > 0 {
		o.Log.Info("recorded the working directory of older tasks", "tasks", fixed)
	}
	if a.autostart, err = NewAutostart(o.ConfigHome, o.Exe, dataDirFlag); err != nil {
		o.Log.Warn("start at login unavailable", "err", err)
	}
	a.buildServices(svc)

	a.notifier = NewNotifier(st, NotifierOptions{Enabled: func() bool { return a.ui().Notifications }, Log: o.Log,
		Open: func(id string) { a.desk.OpenTask(id) }})
	a.desk = NewDesktop(DesktopDeps{Store: st, Run: a.run, Window: a.window, Emitter: a.emit, Nav: a.nav,
		Stopping: a.notifier.ExpectStop, QueueCount: func(ctx context.Context) (int, error) { return app.QueueCount(ctx, st) },
		ReviewRequests: a.prs.ReviewRequests,
		Shutdown:       a.shutdownQueue, CloseToTray: func() bool { return a.ui().CloseToTray },
		Context: a.context, Log: o.Log})
	a.hints.add(a.notifier.Hint)
	if o.Hidden {
		a.startTray(ctx) // whether the window starts hidden depends on a tray host
	} else {
		// The tray's D-Bus connections (10-20 ms) run beside the window's
		// start instead of before it: nothing the window shows first
		// waits for the tray. Close waits for it (wg).
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			a.startTray(ctx)
		}()
	}
	a.syncAutostart(a.settingsNow())
	if o.Launch.NewTask || o.Launch.Review {
		a.desk.Launch(o.Launch)
	}
	if o.Instance != nil {
		o.Instance.Serve(a.desk.Launch)
	}
	return a, nil
}

// OpenForWindow is Open for a process about to show the window: Open
// runs on another goroutine while the calling one, which goes on to run
// the window, initialises GTK and creates WebKit's web context on its
// thread (startToolkit; the goroutine stays locked to it), so the
// two no longer add up before the window starts; GTK is told the desktop's
// colour scheme first (theme.go). WebKit's environment is
// set first, as it must be before GTK starts. Without a display to open it
// closes what Open opened and returns ErrNoDisplay.
func OpenForWindow(ctx context.Context, o Options) (*App, error) {
	if err := setupWebKitEnv(); err != nil {
		return nil, fmt.Errorf("set up webkit: %w", err)
	}
	if err := setupWebKitStorage(o); err != nil {
		return nil, err // the data root's own error, as Open gives it
	}
	type opened struct {
		a   *App
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		a, err := Open(ctx, o)
		ch <- opened{a, err}
	}()
	shown, dark := startToolkit(portalPrefersDark(ctx))
	r := <-ch
	if r.err == nil && dark {
		r.a.theme = ThemeDark
	}
	if r.err != nil || shown {
		return r.a, r.err
	}
	return nil, errors.Join(noDisplay(), r.a.Close())
}

// ErrNoDisplay: GTK could not open a display, so there is no window to
// show (the headless commands need none).
var ErrNoDisplay = errors.New("cannot open a display for the window")

// noDisplay says which display could not be opened and what works
// without one.
func noDisplay() error {
	where := "no DISPLAY or WAYLAND_DISPLAY is set"
	if d, w := os.Getenv("DISPLAY"), os.Getenv("WAYLAND_DISPLAY"); d != "" || w != "" {
		where = fmt.Sprintf("DISPLAY=%q, WAYLAND_DISPLAY=%q", d, w)
	}
	return fmt.Errorf("%w (%s): start it in a graphical session; the headless commands work without one (run 'boof-runner help')", ErrNoDisplay, where)
}

// startTray starts the tray when the desktop has a session bus, and says
// once in the log when there is no tray host: the app then works without a
// tray icon, closing the window quits, and --hidden shows the window anyway
// (nothing could show it).
func (a *App) startTray(ctx context.Context) {
	tray, err := StartTray(a.desk, TrayOptions{Icons: a.opts.TrayIcons})
	if err == nil {
		a.tray = tray
		a.hints.add(tray.Hint)
	}
	host := err == nil && TrayHostAvailable(ctx)
	if !host {
		reason := "no StatusNotifierWatcher on the session bus"
		if err != nil {
			reason = err.Error()
		}
		a.log.Warn("no system tray: the app runs without a tray icon and closing the window quits it", "reason", reason)
	}
	if a.opts.Hidden {
		if host {
			a.window.setVisible(false)
		} else {
			a.log.Info("window: shown despite --hidden, as no tray could show it")
		}
	}
}

// syncAutostart keeps the start-at-login entry in step with the setting;
// it runs at start (the binary may have moved) and after each save.
func (a *App) syncAutostart(s settings.Settings) error {
	if a.autostart.Path == "" {
		return nil
	}
	if err := a.autostart.Apply(s.UI.StartAtLogin); err != nil {
		a.log.Warn("start at login", "err", err)
		return err
	}
	return nil
}

// buildServices builds the services bound to the window over the backend
// services of the host (svc) and the queue.
func (a *App) buildServices(svc *host.Services) {
	sf, rc := svc.Settings, a.queue.control()
	g, rev, in := svc.Git, svc.Review, svc.Intake
	a.tasks = app.NewTaskService(a.store, a.emit, a.context, app.TaskDeps{
		WorkDir: func() string { return a.settingsNow().WorkDir() },
		Wake:    rc.Wake, Branches: branches(g), RemoveBranches: removeBranches(rev), Intake: in,
	})
	a.schedules = app.NewScheduleService(a.store, a.emit, a.context, app.ScheduleDeps{Intake: in, Wake: rc.Wake})
	a.diag = app.NewDiagService(a.log, a.emit, a.context)
	a.commands = app.NewCommandService(a.store, a.emit, a.context)
	a.runSvc = app.NewRunService(a.store, rc, sf, a.live, a.emit, a.context)
	a.settings = app.NewSettingsService(sf, a.store, a.queue.tools, a.emit, a.context, a.window, a.syncAutostart, app.WithWake(rc.Wake))
	a.nav = app.NewNavigator(a.store, a.emit, a.context, a.log)
	a.navSvc = app.NewNavService(a.nav)
	a.review = app.NewReviewService(g, a.store, svc.Worktrees, rev, a.emit, a.context, app.WithWake(rc.Wake))
	a.run = runControl{svc: a.runSvc, pauses: a.store, queue: rc, settings: sf, ctx: a.context}
	a.mergeQueue, a.verify = mergeQueueServices(a, svc, rc.Wake)
	a.prs = svc.PullRequests(a.settingsNow, nil)
	a.forge = app.NewForgeService(a.prs, g, a.store, a.emit, a.context, app.WithWake(rc.Wake))
	a.setup = app.NewSetupService(app.SetupDeps{Settings: sf, Store: a.store, Adapters: host.Adapters(), Health: a.settings.ToolHealth,
		Picker: a.window, Intake: in, Git: g, Emit: a.emit, Ctx: a.context})
}

// settingsNow loads the settings; a bad file gives the defaults, as the
// runner uses.
func (a *App) settingsNow() settings.Settings {
	s, _ := a.queue.services().Settings.Load()
	return s
}

func (a *App) ui() settings.UI { return a.settingsNow().UI }

// bound lists the services bound to the window: their exported methods are
// what the front end calls (window.go.app.<Service>.<Method>).
func (a *App) bound() []any {
	return []any{a.tasks, a.commands, a.runSvc, a.settings, a.review, a.diag, a.navSvc, a.mergeQueue, a.verify, a.schedules, a.forge, a.setup}
}

// branches lists a working directory's branches for the base-ref picker,
// without the task branches.
func branches(g *gitx.Git) app.Branches {
	return func(ctx context.Context, repo string) ([]string, error) {
		return g.Branches(ctx, repo, "boof-runner/")
	}
}

// removeBranches deletes every branch of a task (when the user deletes the
// task and asked for its branches to go too).
func removeBranches(rev *review.Service) func(ctx context.Context, t task.Task) error {
	return func(ctx context.Context, t task.Task) error {
		if t.Repo == "" {
			return nil
		}
		bs, err := rev.TaskBranches(ctx, t.Repo, t.ID)
		if err != nil {
			return err
		}
		_, err = rev.DeleteBranches(ctx, t.Repo, t.ID, bs)
		return err
	}
}
