package wake

import (
	"sync"
	"time"
)

// FileWatch is a watch of some files of one directory (WatchFiles).
type FileWatch struct {
	f    watchSource
	done chan struct{}

	mu      sync.Mutex
	last    time.Time
	pending bool
	closed  bool
}

// ring calls fire now, or once at the end of the gap when it was called
// less than gap ago. fire runs under mu (it must not block), so Close
// returns only once no call can start.
func (w *FileWatch) ring(gap time.Duration, fire func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.pending {
		return
	}
	if wait := gap - time.Since(w.last); wait > 0 {
		w.pending = true
		time.AfterFunc(wait, func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.pending, w.last = false, time.Now()
			if !w.closed {
				fire()
			}
		})
		return
	}
	w.last = time.Now()
	fire()
}

// Close ends the watch; no call of fire starts after it returns.
func (w *FileWatch) Close() error {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	err := w.f.Close()
	<-w.done
	return err
}
