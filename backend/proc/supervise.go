package proc

import (
	"context"
	"syscall"
	"time"
)

// supervise runs the watchdogs until the child exits or a stop is
// requested, then tears the whole tree down, drains the output and
// publishes the result.
func (h *Handle) supervise(ctx context.Context) {
	exited := make(chan struct{})
	go func() {
		_ = h.cmd.Wait() // the outcome is read from cmd.ProcessState
		h.r.mu.Lock()
		delete(h.r.direct, h.pid)
		h.r.mu.Unlock()
		h.mu.Lock()
		h.exited = true
		h.mu.Unlock()
		close(exited)
	}()
	readDone := make(chan struct{})
	go h.readLoop(readDone)
	if h.out != nil {
		go h.out.run(h.spec.OnChunk)
	}

	h.watch(ctx, exited)

	h.mu.Lock()
	if h.killAt.IsZero() {
		// Natural exit: leftovers (background jobs, daemons) get the grace too.
		h.killAt = h.r.now().Add(h.spec.Grace)
	}
	stopping := h.stopRequested && !h.exited
	h.mu.Unlock()
	h.teardown(stopping, exited)

	// The tree is gone, so the PTY's other end is closed and the reader
	// sees EOF after the last byte. Bound the wait in case a process we
	// could not attribute still holds the terminal.
	select {
	case <-readDone:
	case <-time.After(h.r.opts.DrainTimeout):
		h.r.log.Warn("proc: pty still open after teardown", "pid", h.pid)
		if err := h.master.SetReadDeadline(time.Now()); err != nil {
			h.master.Close()
		}
		<-readDone
	}
	if h.stdin != nil {
		h.stdin.Close()
	}
	h.master.Close()
	if h.out != nil {
		h.out.close()
	}
	if h.transcript != nil {
		if err := h.transcript.close(); err != nil {
			h.r.log.Warn("proc: close transcript", "path", h.spec.TranscriptPath, "err", err)
		}
	}
	h.finish()
}

// watch blocks until the child exits or a stop is requested, turning
// context cancellation and the watchdogs into stop requests.
func (h *Handle) watch(ctx context.Context, exited <-chan struct{}) {
	var idleC <-chan time.Time
	if idle := h.spec.IdleTimeout; idle > 0 {
		tk := time.NewTicker(min(max(idle/20, 5*time.Millisecond), time.Second))
		defer tk.Stop()
		idleC = tk.C
	}
	var deadline <-chan time.Time
	if h.spec.MaxRuntime > 0 {
		tm := time.NewTimer(h.spec.MaxRuntime)
		defer tm.Stop()
		deadline = tm.C
	}
	ctxDone := ctx.Done()
	for {
		select {
		case <-exited:
			return
		case <-h.stopCh:
			return
		case <-ctxDone:
			ctxDone = nil
			h.stop(ReasonCanceled, h.spec.Grace)
		case <-idleC:
			last := time.Unix(0, h.lastOut.Load())
			if h.r.now().Sub(last) >= h.spec.IdleTimeout {
				h.stop(ReasonStalled, h.spec.Grace)
			}
		case <-deadline:
			h.stop(ReasonTimeout, h.spec.Grace)
		}
	}
}

// finish publishes the result, unregisters the handle and closes Done.
func (h *Handle) finish() {
	st := h.cmd.ProcessState
	res := Result{
		ExitCode:    -1,
		Bytes:       h.bytes.Load(),
		Started:     h.started,
		Duration:    h.r.now().Sub(h.started),
		IdleTimeout: h.spec.IdleTimeout,
		MaxRuntime:  h.spec.MaxRuntime,
		OutputLimit: h.spec.OutputLimit,
	}
	if st != nil {
		res.ExitCode = st.ExitCode()
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Signal = ws.Signal().String()
		}
	}
	if h.out != nil {
		res.Dropped = h.out.dropped.Load()
	}
	h.mu.Lock()
	res.Reason = h.reason
	h.result = res
	h.mu.Unlock()
	h.r.forget(h)
	close(h.done)
}
