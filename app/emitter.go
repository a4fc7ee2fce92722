// Package app holds the services bound to the Wails window. They are thin:
// each forwards to backend packages and maps errors to readable messages.
package app

import (
	"context"
	"sync"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Event names, shaped domain:verb[:id]. Events are hints: the UI reloads
// state from the bound services when one arrives.
const (
	// EventTasksChanged says some task changed; reload lists.
	EventTasksChanged = "tasks:changed"
	// EventTaskOutputPrefix + a task id carries an OutputBatch of that task.
	EventTaskOutputPrefix = "task:output:"
	// EventRunnerStatus carries a RunnerStatus.
	EventRunnerStatus = "runner:status"
	// EventSettingsChanged says settings were saved.
	EventSettingsChanged = "settings:changed"
	// EventUINewTask asks the window to open the New task form (from the tray).
	EventUINewTask = "ui:new-task"
	// EventUIShowReview asks the window to show the review queue (from the tray).
	EventUIShowReview = "ui:show-review"
)

// Emitter sends an event to the UI. Every event goes through one Emitter so
// tests can record them.
type Emitter interface {
	Emit(name string, payload ...any)
}

// WailsEmitter emits through the Wails runtime once the window has started.
type WailsEmitter struct {
	mu  sync.RWMutex
	ctx context.Context
}

// Attach binds the emitter to the Wails context given at startup.
func (w *WailsEmitter) Attach(ctx context.Context) {
	w.mu.Lock()
	w.ctx = ctx
	w.mu.Unlock()
}

// Emit sends the event; before startup it is dropped (the UI loads state on mount).
func (w *WailsEmitter) Emit(name string, payload ...any) {
	w.mu.RLock()
	ctx := w.ctx
	w.mu.RUnlock()
	if ctx != nil {
		runtime.EventsEmit(ctx, name, payload...)
	}
}

// RecordingEmitter keeps every event; for tests.
type RecordingEmitter struct {
	mu       sync.Mutex
	Events   []string
	Payloads [][]any
}

// Emit records the event.
func (r *RecordingEmitter) Emit(name string, payload ...any) {
	r.mu.Lock()
	r.Events = append(r.Events, name)
	r.Payloads = append(r.Payloads, payload)
	r.mu.Unlock()
}

// Names returns a copy of the recorded names.
func (r *RecordingEmitter) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.Events...)
}
