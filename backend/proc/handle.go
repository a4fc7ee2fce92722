package proc

import (
	"errors"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

// Handle is one running child and its process tree. Its methods are safe
// for concurrent use.
type Handle struct {
	r          *Runner
	spec       Spec
	cmd        *exec.Cmd
	pid        int
	tag        string
	master     *os.File
	stdin      *os.File    // write end of the stdin pipe, or nil
	transcript *transcript // nil without TranscriptPath
	started    time.Time
	out        *outbox    // nil without OnChunk
	filter     *outFilter // nil without RunnerOptions.Filter

	mu            sync.Mutex
	reason        Reason
	exited        bool
	stopRequested bool
	killAt        time.Time
	result        Result

	osHandle // what this OS knows of the tree (handle_<os>.go)

	stopCh  chan struct{}
	done    chan struct{}
	bytes   atomic.Int64
	lastOut atomic.Int64 // unix nanos of the last output
}

func newHandle(r *Runner, s Spec, cmd *exec.Cmd, tag string, master, stdin, transcript *os.File) *Handle {
	h := &Handle{
		r:       r,
		spec:    s,
		cmd:     cmd,
		pid:     cmd.Process.Pid,
		tag:     tag,
		master:  master,
		stdin:   stdin,
		started: r.now(),
		stopCh:  make(chan struct{}),
		done:    make(chan struct{}),
	}
	h.lastOut.Store(h.started.UnixNano())
	if transcript != nil {
		h.transcript = newTranscript(transcript, h.transcriptFailed)
	}
	if s.OnChunk != nil {
		h.out = newOutbox(r.opts.MaxBacklog)
	}
	if r.opts.Filter != nil {
		h.filter = newOutFilter(h, r.opts.Filter())
	}
	return h
}

// Pid returns the pid of the direct child.
func (h *Handle) Pid() int { return h.pid }

// Tag returns the value of TagEnv given to this child; every descendant
// that keeps its environment carries it.
func (h *Handle) Tag() string { return h.tag }

// Write sends p to the child's stdin: to the pipe in StdinPipe mode, to
// the PTY in StdinPTY mode. It blocks until the child has taken the bytes.
// It returns ErrNoInput in StdinNull mode and ErrInputClosed after
// CloseInput or once the child has been torn down.
func (h *Handle) Write(p []byte) (int, error) {
	var f *os.File
	switch h.spec.Stdin {
	case StdinPipe:
		f = h.stdin
	case StdinPTY:
		f = h.master
	default:
		return 0, ErrNoInput
	}
	n, err := f.Write(p)
	if errors.Is(err, os.ErrClosed) {
		return n, ErrInputClosed
	}
	return n, err
}

// CloseInput closes the stdin pipe so the child reads EOF. It is
// idempotent in StdinPipe mode; it returns ErrNoInput in StdinNull mode
// and ErrNoEOF in StdinPTY mode (a raw PTY cannot signal EOF).
func (h *Handle) CloseInput() error {
	switch h.spec.Stdin {
	case StdinPipe:
		if err := h.stdin.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
			return err
		}
		return nil
	case StdinPTY:
		return ErrNoEOF
	default:
		return ErrNoInput
	}
}

// Stop asks for the tree to be stopped: SIGTERM now, SIGKILL after the
// spec's Grace. It returns immediately; Wait gives the outcome. It is
// idempotent and safe concurrently with a natural exit: the first reason
// given before the child exits is kept, and a Stop after the child exited
// on its own leaves Reason at ReasonNone. ReasonNone counts as ReasonStopped.
func (h *Handle) Stop(reason Reason) { h.stop(reason, h.spec.Grace) }

// stop records reason and moves the SIGKILL deadline to now+grace if that
// is earlier than the current one.
func (h *Handle) stop(reason Reason, grace time.Duration) {
	if reason == ReasonNone {
		reason = ReasonStopped
	}
	at := h.r.now().Add(grace)
	h.mu.Lock()
	if !h.exited && h.reason == ReasonNone {
		h.reason = reason
	}
	if h.killAt.IsZero() || at.Before(h.killAt) {
		h.killAt = at
	}
	first := !h.stopRequested
	h.stopRequested = true
	h.mu.Unlock()
	if first {
		close(h.stopCh)
	}
}

func (h *Handle) getKillAt() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.killAt
}

// Done is closed when the tree is gone and the transcript closed.
func (h *Handle) Done() <-chan struct{} { return h.done }

// Wait blocks until the whole tree is torn down, the output drained to
// the transcript and the consumer, and the transcript closed; it then
// returns the result (the same on every call).
func (h *Handle) Wait() Result {
	<-h.done
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.result
}
