package app

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
)

// App owns the window's lifetime: it starts background watchers on startup
// and stops them on shutdown.
type App struct {
	store   *store.Store
	emitter *WailsEmitter
	log     *slog.Logger

	mu       sync.Mutex
	ctx      context.Context
	cancel   context.CancelFunc
	wailsCtx context.Context
	hints    []func()
}

// OnChange adds a function called whenever the database changed (this or
// another process): the tray and the notifier refresh on it. Call it before
// Startup.
func (a *App) OnChange(f func()) {
	a.mu.Lock()
	a.hints = append(a.hints, f)
	a.mu.Unlock()
}

// New builds the App around an open store.
func New(s *store.Store, log *slog.Logger) *App {
	ctx, cancel := context.WithCancel(context.Background())
	return &App{store: s, emitter: &WailsEmitter{}, log: log, ctx: ctx, cancel: cancel}
}

// Emitter is the app's one event emitter.
func (a *App) Emitter() Emitter { return a.emitter }

// Context is the app's lifetime context.
func (a *App) Context() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctx
}

// WailsContext is the window's context (for dialogs and window calls); nil
// before startup.
func (a *App) WailsContext() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.wailsCtx
}

// Startup is called by Wails when the window is ready.
func (a *App) Startup(wailsCtx context.Context) {
	a.mu.Lock()
	a.wailsCtx = wailsCtx
	a.mu.Unlock()
	a.emitter.Attach(wailsCtx)
	// Changes by other processes (the CLI, a headless runner) reach the UI as a hint.
	a.mu.Lock()
	hints := append([]func(){}, a.hints...)
	a.mu.Unlock()
	changed := func() {
		a.emitter.Emit(EventTasksChanged)
		for _, f := range hints {
			f()
		}
	}
	if err := a.store.Watch(a.Context(), 500*time.Millisecond, changed); err != nil {
		a.log.Error("watch database", "err", err)
	}
}

// DomReady is called by Wails once the front end has loaded; the log line
// marks the window as usable (the smoke test and the start-up benchmark wait
// for it).
func (a *App) DomReady(context.Context) {
	a.log.Info("window: dom ready")
}

// Shutdown is called by Wails when the window closes.
func (a *App) Shutdown(context.Context) {
	a.cancel()
}
