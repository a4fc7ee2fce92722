// Package shell is the desktop shell around the bound services of package
// app: it opens a data root's store and queue, builds the services and binds
// them to the Wails window, and runs the tray, desktop notifications,
// close-to-tray and the hints that keep them current. Every Wails call is
// in wails.go; the shell's one use of the runner host is in queue.go.
package shell

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/pullreq"
	"github.com/boof-runner/boof-runner/backend/store"
)

// App is the desktop app of one data root: its store, its queue (run here,
// or by another process that holds the runner lock), the bound services,
// the tray and the notifier. Open builds it, Run shows the window, Close
// ends it.
type App struct {
	opts   Options
	log    *slog.Logger
	quitOn context.Context // Open's context: when it ends, the window quits

	store  *store.Store
	queue  queue
	window *wailsRuntime
	emit   app.Emitter
	hints  *hints
	live   *app.LiveOutput
	status *statusWatch
	run    RunControl // the queue as the tray and the status watcher see it

	tasks    *app.TaskService
	commands *app.CommandService
	runSvc   *app.RunService
	settings *app.SettingsService
	review   *app.ReviewService
	diag     *app.DiagService
	nav      *app.Navigator
	navSvc   *app.NavService
	// schedules is the Schedules screen's service (recurring tasks).
	schedules *app.ScheduleService
	// mergeQueue and verify: the merge queue and the per-repository
	// verify commands (mergequeue.go).
	mergeQueue *app.MergeQueueService
	verify     *app.VerifyService
	// forge is the pull requests' service (forge.go); prs the service it
	// wraps, whose poll start runs.
	forge *app.ForgeService
	prs   *pullreq.Service
	// theme is the window's colour scheme (OpenForWindow; "" is light).
	theme Theme
	// setup is the first-launch screen's and the New task form's
	// repository choice (what is missing, recent repositories, the picker).
	setup *app.SetupService

	autostart Autostart

	desk     *Desktop
	tray     *Tray // nil when the desktop has no session bus; set by Open, or by its goroutine (wg) when the window starts shown
	notifier *Notifier

	ctx     context.Context // the app's lifetime; ends at the window's shutdown or Close
	cancel  context.CancelFunc
	runCtx  context.Context // the queue loop's; ends when the queue stops
	stopRun context.CancelFunc

	mu        sync.Mutex
	started   bool
	queueDone bool // stopQueue began: the loop must not start
	closing   bool
	wg        sync.WaitGroup // every goroutine but the queue loop
	runWG     sync.WaitGroup // the queue loop
	stopOnce  sync.Once
	closeOnce sync.Once
}

// Intervals of the background checks.
const (
	statusInterval = 500 * time.Millisecond // runner:status on a change of what runs
	watchInterval  = 500 * time.Millisecond // commits by other processes
	notifyInterval = 2 * time.Second        // desktop notifications
	forgeTick      = 30 * time.Second       // which open pull request's poll is due
)

// Run shows the window and blocks until it closes; the window's start-up
// starts the queue and the background checks. Call Close after it. The app
// comes from OpenForWindow, which readied GTK and WebKit for the window.
func (a *App) Run() error { return runWindow(a) }

// windowIcon is the icon the window shows: WindowIcon, else AppIcon.
func (a *App) windowIcon() []byte {
	if a.opts.WindowIcon != nil {
		return a.opts.WindowIcon
	}
	return a.opts.AppIcon
}

// context is the app's lifetime context, given to the services.
func (a *App) context() context.Context { return a.ctx }

// onStartup is Wails' OnStartup: the window exists.
func (a *App) onStartup(wailsCtx context.Context) {
	a.window.attach(wailsCtx)
	a.start()
}

// onDomReady is Wails' OnDomReady. The log line marks the window as usable
// (the smoke test and the start-up benchmark wait for it).
func (a *App) onDomReady(context.Context) {
	a.log.Info("window: dom ready")
}

// onShutdown is Wails' OnShutdown: the window is closing. Running steps are
// stopped (grace, then kill) before the app exits, and the background
// checks end.
func (a *App) onShutdown(context.Context) {
	a.shutdownQueue()
	a.cancel()
}

// start starts the work of an open window: the queue loop, the status
// watcher, the watcher of other processes' commits, the notifier, and the
// quit when Open's context ends. It does nothing after Close began or on a
// second call.
func (a *App) start() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.started || a.closing {
		return
	}
	a.started = true
	if !a.queueDone {
		a.runWG.Add(1)
		go func() {
			defer a.runWG.Done()
			if err := a.queue.run(a.runCtx); err != nil && !errors.Is(err, context.Canceled) {
				a.log.Error("runner stopped", "err", err)
			}
		}()
	}
	a.wg.Add(4)
	go func() {
		defer a.wg.Done()
		a.status.run(a.ctx, statusInterval, a.run, a.runSvc, a.emit)
	}()
	go func() { // the open pull requests, read every forge.pollSeconds
		defer a.wg.Done()
		app.PollPullRequests(a.ctx, a.prs, a.emit, forgeTick)
	}()
	go func() { // changes by other processes (the CLI, a headless runner) reach the UI as a hint
		defer a.wg.Done()
		// A commit seen also re-checks the runner status (what runs, in
		// another process too) without waiting for its own poll.
		changed := func() { a.emit.Emit(app.EventTasksChanged); a.status.poke() }
		if err := a.store.Watch(a.ctx, watchInterval, a.queue.woken(), changed); err != nil && a.ctx.Err() == nil {
			a.log.Error("watch database", "err", err)
		}
	}()
	go func() { // SIGINT/SIGTERM: quit as the tray's Quit does, steps stopped first
		defer a.wg.Done()
		select {
		case <-a.quitOn.Done():
		case <-a.ctx.Done():
			return
		}
		if a.ctx.Err() == nil {
			a.desk.Quit()
		}
	}()
	a.notifier.Start(a.ctx, notifyInterval)
	app.StartScreenProbes(a.ctx, a.diag, a.opts.DataDir)
}

// stopQueue stops the queue once: it ends the loop (running steps record
// themselves as interrupted), waits for it, then stops every process still
// running (grace, then kill) and releases the runner lock. Only the first
// call does the work and returns its error.
func (a *App) stopQueue() error {
	var err error
	a.stopOnce.Do(func() {
		if a.opts.Instance != nil {
			// A launch from now on waits for the lock instead of being
			// handed to an app that is quitting.
			a.opts.Instance.Retire()
		}
		a.mu.Lock()
		a.queueDone = true
		a.mu.Unlock()
		a.stopRun()
		a.runWG.Wait()
		err = a.queue.close()
	})
	return err
}

// shutdownQueue is stopQueue for the window's close paths, which have no
// caller to return an error to.
func (a *App) shutdownQueue() {
	if err := a.stopQueue(); err != nil {
		a.log.Error("runner close", "err", err)
	}
}

// Close ends the app: it cancels every goroutine's context, waits for them
// all (the queue loop, the watchers, the notifier, the tray), closes the
// runner host (stopping what still runs), flushes the live output, and
// closes the store last, so nothing uses it after. Later calls return nil.
func (a *App) Close() error {
	var err error
	a.closeOnce.Do(func() {
		a.mu.Lock()
		a.closing = true
		a.mu.Unlock()
		a.cancel()
		a.runWG.Wait()
		a.wg.Wait()
		a.notifier.Close()
		if a.tray != nil {
			a.tray.Close()
		}
		qerr := a.stopQueue()
		a.live.Close()
		err = errors.Join(qerr, a.store.Close())
	})
	return err
}
