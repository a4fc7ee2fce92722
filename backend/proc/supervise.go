package proc

import (
	"context"
	"errors"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
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
	var termed []int
	if stopping && h.termGroup() {
		termed = []int{h.pid}
	}
	if survivors, err := h.endTree(termed); err != nil {
		h.r.log.Warn("proc: tree not fully stopped", "pid", h.pid, "survivors", survivors, "err", err)
	}
	<-exited
	if h.cg != nil {
		h.reapCgroup()
		if err := h.cg.remove(); err != nil {
			h.r.log.Warn("proc: step cgroup kept", "dir", h.cg.dir, "err", err)
		}
	}

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

// endTree ends the child's whole tree: through its cgroup when it has one
// (a cgroup that cannot be read any more falls back to the scans), else
// by scanning /proc for its members. termed lists the groups that already
// got SIGTERM.
func (h *Handle) endTree(termed []int) ([]int, error) {
	if h.cg != nil {
		survivors, err := h.endCgroup()
		if err == nil || errors.Is(err, ErrSurvivors) {
			return survivors, err
		}
		h.r.log.Warn("proc: step cgroup unreadable; scanning /proc for the tree", "dir", h.cg.dir, "err", err)
	}
	k := treeKill{
		members:   h.tree,
		pgids:     []int{h.pid},
		termed:    termed,
		killAt:    h.getKillAt,
		onScan:    func(t *procTable) { h.r.reap(t, true) },
		awaitReap: true,
		self:      h.r.self,
		now:       h.r.now,
	}
	return k.run()
}

// termGroup sends SIGTERM (and SIGCONT) to the child's process group at
// once, before the first scan of the process table, so a cooperative tree
// starts exiting while escapees are looked for. The group id is safe to
// signal because its leader, our direct child, is checked to be not yet
// reaped: the id cannot be reused before that.
func (h *Handle) termGroup() bool {
	p, ok := readStat(h.pid)
	if !ok || p.start != h.startTicks {
		return false
	}
	_ = unix.Kill(-h.pid, unix.SIGTERM)
	_ = unix.Kill(-h.pid, unix.SIGCONT)
	return true
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
