package proc

import (
	"sync"
	"time"
)

// Filter rewrites a child's output before it reaches the transcript and
// OnChunk: the app scrubs secrets with it (backend/secrets.Stream). A
// filter may hold back an incomplete tail (a line whose end has not come
// yet) and return it later.
type Filter interface {
	// Write takes the next bytes read from the PTY and returns the bytes
	// ready to keep, possibly none. The result may be reused by the next call.
	Write(p []byte) []byte
	// FlushIdle returns what may go on after the child paused mid-line;
	// it may keep a tail that could be the start of a secret.
	FlushIdle() []byte
	// Flush returns everything held back.
	Flush() []byte
}

// filterHoldFor is how long held-back output may wait while the child
// prints nothing more; then what can go on does (Filter.FlushIdle).
const filterHoldFor = 500 * time.Millisecond

// outFilter runs a Filter for one handle. The read loop and the hold timer
// both use it, so it keeps its own lock, held while the filtered bytes
// reach the transcript and the consumer, which keeps them in order.
type outFilter struct {
	mu     sync.Mutex
	f      Filter
	timer  *time.Timer
	closed bool
}

func newOutFilter(h *Handle, f Filter) *outFilter {
	of := &outFilter{f: f}
	of.timer = time.AfterFunc(time.Hour, func() { h.flushFilter(false) })
	of.timer.Stop()
	return of
}

// keepFiltered passes p through the filter, then keeps what it returns.
func (h *Handle) keepFiltered(p []byte) {
	of := h.filter
	of.mu.Lock()
	defer of.mu.Unlock()
	if of.closed {
		return
	}
	h.keepRaw(of.f.Write(p))
	of.timer.Reset(filterHoldFor)
}

// flushFilter keeps what the filter held back; final closes the filter
// (the output has ended).
func (h *Handle) flushFilter(final bool) {
	of := h.filter
	if of == nil {
		return
	}
	of.mu.Lock()
	defer of.mu.Unlock()
	if of.closed {
		return
	}
	if final {
		h.keepRaw(of.f.Flush())
	} else {
		h.keepRaw(of.f.FlushIdle())
	}
	if final {
		of.closed = true
		of.timer.Stop()
	}
}
