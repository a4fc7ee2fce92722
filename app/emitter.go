// Package app holds the services bound to the Wails window (TaskService,
// CommandService, RunService, SettingsService, ReviewService,
// MergeQueueService, VerifyService, …), their view
// types and the live-output feed they serve. They are thin: each forwards to
// backend packages and maps errors to readable messages. The package imports
// no Wails code: the desktop shell (app/shell) gives it an Emitter and a
// DirectoryPicker, and binds the services to the window.
package app

import (
	"sync"
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
)

// Emitter sends an event to the UI. Every event goes through one Emitter so
// tests can record them; the shell's emitter calls the Wails runtime.
type Emitter interface {
	Emit(name string, payload ...any)
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

// PayloadsOf returns a copy of the payloads of the recorded events named name.
func (r *RecordingEmitter) PayloadsOf(name string) [][]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out [][]any
	for i, n := range r.Events {
		if n == name {
			out = append(out, r.Payloads[i])
		}
	}
	return out
}
