package proc

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// readBuf is the size of one read from the PTY master.
const readBuf = 64 << 10

// readLoop copies PTY output to the transcript and the consumer until the
// PTY reports EOF/EIO (every holder of the terminal closed it) or is closed.
func (h *Handle) readLoop(done chan<- struct{}) {
	defer close(done)
	defer h.flushFilter(true)
	buf := make([]byte, readBuf)
	for {
		n, err := h.master.Read(buf)
		if n > 0 {
			h.consume(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// consume accounts for one read and applies the output limit.
func (h *Handle) consume(p []byte) {
	h.lastOut.Store(h.r.now().UnixNano())
	n := int64(len(p))
	total := h.bytes.Add(n)
	limit := h.spec.OutputLimit
	if limit <= 0 || total <= limit {
		h.keep(p)
		return
	}
	before := total - n
	if before >= limit {
		return // past the limit: already marked and stopping
	}
	h.keep(p[:limit-before])
	h.flushFilter(true)
	h.writeTranscript([]byte(fmt.Sprintf("\n[boof-runner] output limit of %d bytes reached; process stopped\n", limit)))
	h.stop(ReasonOutputLimit, h.spec.Grace)
}

// keep passes p through the runner's filter, if any, then keeps it.
func (h *Handle) keep(p []byte) {
	if h.filter != nil {
		h.keepFiltered(p)
		return
	}
	h.keepRaw(p)
}

// keepRaw writes p to the transcript first (durable copy), then offers it
// to the consumer.
func (h *Handle) keepRaw(p []byte) {
	if len(p) == 0 {
		return
	}
	h.writeTranscript(p)
	if h.out != nil {
		h.out.push(p)
	}
}

// writeTranscript appends p to the transcript, if any.
func (h *Handle) writeTranscript(p []byte) {
	if h.transcript != nil {
		h.transcript.write(p)
	}
}

// transcriptFailed stops the child: running on without a durable copy
// would lose output.
func (h *Handle) transcriptFailed(err error) {
	h.r.log.Error("proc: transcript write failed; stopping child", "path", h.spec.TranscriptPath, "err", err)
	h.stop(ReasonTranscript, h.spec.Grace)
}

// outbox hands output to a consumer on one goroutine, coalescing whatever
// piled up while the consumer was busy. The backlog is bounded: bytes that
// do not fit are dropped for the consumer and counted. It is kept in
// fixed-size blocks, reused, so a backlog that builds up during a flood
// costs its own size in memory and no garbage (one growing buffer per side
// left up to twice the backlog behind it at every doubling: K4 in make
// bench read up to 26 MB of RSS growth once the reader kept up with the
// child).
type outbox struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pending [][]byte // oldest first; only the last may have room left
	size    int      // bytes in pending
	free    [][]byte // empty blocks kept for reuse, at most keepBlocks
	spare   [][]byte // owned by run: the list it last handed back
	max     int
	closed  bool
	dropped atomic.Int64
	done    chan struct{}
}

// outBlock is the size of one backlog block; keepBlocks empty blocks are
// kept for the next burst, the rest are left to the collector.
const (
	outBlock   = 64 << 10
	keepBlocks = 16
)

func newOutbox(max int) *outbox {
	o := &outbox{max: max, done: make(chan struct{})}
	o.cond = sync.NewCond(&o.mu)
	return o
}

// push queues a copy of p without ever blocking on the consumer.
func (o *outbox) push(p []byte) {
	o.mu.Lock()
	room := o.max - o.size
	if room < len(p) {
		room = max(room, 0)
		o.dropped.Add(int64(len(p) - room))
		p = p[:room]
	}
	if len(p) > 0 {
		o.size += len(p)
		for len(p) > 0 {
			last := len(o.pending) - 1
			if last < 0 || len(o.pending[last]) == cap(o.pending[last]) {
				o.pending = append(o.pending, o.block())
				last++
			}
			b := o.pending[last]
			k := copy(b[len(b):cap(b)], p)
			o.pending[last] = b[:len(b)+k]
			p = p[k:]
		}
		o.cond.Signal()
	}
	o.mu.Unlock()
}

// block returns an empty block, reused if one is free. o.mu is held.
func (o *outbox) block() []byte {
	if n := len(o.free); n > 0 {
		b := o.free[n-1]
		o.free = o.free[:n-1]
		return b
	}
	return make([]byte, 0, outBlock)
}

// close lets run deliver what is pending, then waits for it to return.
func (o *outbox) close() {
	o.mu.Lock()
	o.closed = true
	o.cond.Signal()
	o.mu.Unlock()
	<-o.done
}

// run calls fn with each block of every coalesced batch until closed and
// drained.
func (o *outbox) run(fn func([]byte)) {
	defer close(o.done)
	for {
		o.mu.Lock()
		for len(o.pending) == 0 && !o.closed {
			o.cond.Wait()
		}
		if len(o.pending) == 0 {
			o.mu.Unlock()
			return
		}
		batch, size := o.pending, o.size
		o.pending, o.size = o.spare[:0], 0
		o.mu.Unlock()
		for _, b := range batch {
			fn(b)
		}
		o.mu.Lock()
		for i, b := range batch {
			if len(o.free) < keepBlocks {
				o.free = append(o.free, b[:0])
			}
			batch[i] = nil
		}
		o.mu.Unlock()
		o.spare = batch
		if size >= floodBatch {
			// A flood: let it pile up for a moment rather than wake for
			// every read (on two cores the wake-ups took the CPU the
			// child writes with; K3 in make bench: 0.60–0.68 → 0.76–0.84
			// of a raw PTY read). Sparse output is delivered at once.
			time.Sleep(floodPause)
		}
	}
}

// floodBatch is the batch size from which the consumer pauses floodPause
// before taking the next one.
const (
	floodBatch = 4 << 10
	floodPause = time.Millisecond
)
