package shell

import (
	"context"
	"errors"
	"sync"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/boof-runner/boof-runner/app"
)

// This file is the only one that calls Wails: the window's options and
// lifecycle hooks, and every runtime call (events, window, dialogs, quit).

// runWindow opens the window with a's services bound and blocks until it
// closes. WebKit's environment was set by OpenForWindow, before GTK started.
func runWindow(a *App) error {
	return wails.Run(&options.App{
		Title:            "Boof Runner",
		Width:            1280,
		Height:           800,
		MinWidth:         1000,
		MinHeight:        640,
		StartHidden:      !a.window.Visible(),
		AssetServer:      &assetserver.Options{Assets: a.opts.Assets},
		BackgroundColour: windowBackground(a.theme),
		OnStartup:        a.onStartup,
		OnDomReady:       a.onDomReady,
		OnBeforeClose:    a.desk.BeforeClose,
		OnShutdown:       a.onShutdown,
		Bind:             a.bound(),
		Linux:            &linux.Options{ProgramName: "boof-runner", Icon: a.windowIcon(), WebviewGpuPolicy: linux.WebviewGpuPolicyNever},
	})
}

// windowBackground is the window's colour before the page paints: the
// page's own background (--bg in frontend/src/app.css) in the theme, so
// the first frame already matches the UI.
func windowBackground(t Theme) *options.RGBA {
	if t == ThemeDark {
		return &options.RGBA{R: 0x17, G: 0x19, B: 0x1d, A: 255}
	}
	return &options.RGBA{R: 255, G: 255, B: 255, A: 255}
}

// wailsRuntime is the window as the rest of the app sees it: the event
// emitter, the window (show, hide, quit) and the folder dialog. Calls made
// before Wails started the window (attach) emit nothing and only record the
// window's visibility. Wails v2 cannot tell whether the window is shown, so
// the record is what it was last told.
type wailsRuntime struct {
	mu      sync.RWMutex
	ctx     context.Context
	visible bool
}

var (
	_ app.Emitter         = (*wailsRuntime)(nil)
	_ app.DirectoryPicker = (*wailsRuntime)(nil)
	_ Window              = (*wailsRuntime)(nil)
)

// newWailsRuntime returns the runtime record; startVisible says whether
// Wails opens the window shown (options.App.StartHidden false).
func newWailsRuntime(startVisible bool) *wailsRuntime { return &wailsRuntime{visible: startVisible} }

// attach binds the runtime to the Wails context given at startup.
func (w *wailsRuntime) attach(ctx context.Context) {
	w.mu.Lock()
	w.ctx = ctx
	w.mu.Unlock()
}

func (w *wailsRuntime) context() context.Context {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.ctx
}

// Emit sends the event; before startup it is dropped (the UI loads state on
// mount).
func (w *wailsRuntime) Emit(name string, payload ...any) {
	if ctx := w.context(); ctx != nil {
		runtime.EventsEmit(ctx, name, payload...)
	}
}

// setVisible records the window's visibility and returns the Wails
// context (nil before the window started).
func (w *wailsRuntime) setVisible(visible bool) context.Context {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.visible = visible
	return w.ctx
}

// Show shows the window, un-minimised.
func (w *wailsRuntime) Show() {
	if ctx := w.setVisible(true); ctx != nil {
		runtime.WindowShow(ctx)
		runtime.WindowUnminimise(ctx)
	}
}

// Hide hides the window.
func (w *wailsRuntime) Hide() {
	if ctx := w.setVisible(false); ctx != nil {
		runtime.WindowHide(ctx)
	}
}

// Visible reports whether the window was last shown.
func (w *wailsRuntime) Visible() bool {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.visible
}

// Quit asks Wails to end the app; Wails calls OnBeforeClose first.
func (w *wailsRuntime) Quit() {
	if ctx := w.context(); ctx != nil {
		runtime.Quit(ctx)
	}
}

// errNoWindow is returned by a dialog asked for before the window exists.
var errNoWindow = errors.New("the window is not open yet")

// PickDirectory opens the native folder picker; "" when cancelled.
func (w *wailsRuntime) PickDirectory(title string) (string, error) {
	ctx := w.context()
	if ctx == nil {
		return "", errNoWindow
	}
	return runtime.OpenDirectoryDialog(ctx, runtime.OpenDialogOptions{Title: title, CanCreateDirectories: true})
}
