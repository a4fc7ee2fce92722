package shell

import (
	"sync"

	"github.com/boof-runner/boof-runner/app"
)

// HintEmitter passes every event to Next and, for the events that say state
// changed (tasks:changed, runner:status), calls each of On: give it the
// tray's and the notifier's Hint, which never block.
type HintEmitter struct {
	Next app.Emitter
	On   []func()
}

// Emit forwards the event, then calls the hints.
func (h HintEmitter) Emit(name string, payload ...any) {
	h.Next.Emit(name, payload...)
	if name == app.EventTasksChanged || name == app.EventRunnerStatus {
		for _, f := range h.On {
			f()
		}
	}
}

// hints fans a "state changed" hint out to the parts that refresh on it (the
// tray and the notifier). The emitter that calls it exists before them, so
// each joins with add once it exists.
type hints struct {
	mu   sync.Mutex
	subs []func()
}

// add makes f get every later hint; f must not block.
func (h *hints) add(f func()) {
	h.mu.Lock()
	h.subs = append(h.subs, f)
	h.mu.Unlock()
}

// notify calls every subscriber.
func (h *hints) notify() {
	h.mu.Lock()
	subs := h.subs
	h.mu.Unlock()
	for _, f := range subs {
		f()
	}
}

// discard is the Emitter that drops every event.
type discard struct{}

func (discard) Emit(string, ...any) {}
