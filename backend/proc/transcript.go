package proc

import (
	"os"
	"sync"
	"time"
)

// Transcript batching: bytes reach the file at most transcriptFlushEvery
// after they were read (the issue allows 100 ms), or sooner when the
// buffer fills, so a flood costs one write per 64 KiB instead of one per
// PTY read.
const (
	transcriptFlushEvery = 50 * time.Millisecond
	transcriptBufSize    = 64 << 10
)

// transcript appends output to a file through a small buffer flushed by
// size and by time. It is safe for concurrent use.
type transcript struct {
	mu     sync.Mutex
	f      *os.File
	buf    []byte
	armed  bool
	failed bool
	closed bool
	timer  *time.Timer
	onFail func(error) // called once, with t.mu held; must not call back into t
}

func newTranscript(f *os.File, onFail func(error)) *transcript {
	t := &transcript{f: f, buf: make([]byte, 0, transcriptBufSize), onFail: onFail}
	t.timer = time.AfterFunc(time.Hour, t.flush)
	t.timer.Stop()
	return t
}

// write queues p; the bytes are on disk within transcriptFlushEvery.
func (t *transcript) write(p []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.failed || t.closed {
		return
	}
	if len(t.buf)+len(p) > cap(t.buf) {
		t.flushLocked()
		if len(p) >= cap(t.buf) {
			t.writeLocked(p)
			return
		}
	}
	t.buf = append(t.buf, p...)
	if !t.armed {
		t.armed = true
		t.timer.Reset(transcriptFlushEvery)
	}
}

func (t *transcript) flush() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed {
		t.flushLocked()
	}
}

func (t *transcript) flushLocked() {
	t.armed = false
	if len(t.buf) > 0 {
		t.writeLocked(t.buf)
		t.buf = t.buf[:0]
	}
}

func (t *transcript) writeLocked(p []byte) {
	if t.failed {
		return
	}
	if _, err := t.f.Write(p); err != nil {
		t.failed = true
		t.onFail(err)
	}
}

// close flushes what is buffered and closes the file.
func (t *transcript) close() error {
	t.timer.Stop()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flushLocked()
	t.closed = true
	return t.f.Close()
}
