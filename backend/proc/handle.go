package proc

import (
	"errors"
	"os"
	"os/exec"
	"sort"
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
	startTicks uint64
	tag        string
	master     *os.File
	stdin      *os.File    // write end of the stdin pipe, or nil
	transcript *transcript // nil without TranscriptPath
	cg         *stepCgroup // the child's cgroup; nil without (see Runner.Mechanism)
	started    time.Time
	out        *outbox    // nil without OnChunk
	filter     *outFilter // nil without RunnerOptions.Filter

	mu            sync.Mutex
	reason        Reason
	exited        bool
	stopRequested bool
	killAt        time.Time
	history       map[procKey]struct{}
	result        Result

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
		history: make(map[procKey]struct{}),
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

// Pgid returns the child's process group id (equal to its pid and its
// session id: the child leads a new session).
func (h *Handle) Pgid() int { return h.pid }

// Tag returns the value of TagEnv given to this child; every descendant
// that keeps its environment carries it.
func (h *Handle) Tag() string { return h.tag }

// Pids returns the live processes of the tree right now, sorted: those in
// the child's cgroup or, without one, the child, its descendants, members
// of its session or group, and adopted orphans that carry its tag or
// escaped from it (see escapeeOf). Record them so a later process can kill
// survivors with KillRecorded. It returns nil once the tree is gone or
// /proc is unreadable.
func (h *Handle) Pids() []int {
	if h.cg != nil {
		if pids, err := h.cg.pids(); err == nil {
			live := pids[:0]
			for _, pid := range pids {
				if p, ok := readStat(pid); ok && !p.zombie {
					live = append(live, pid)
				}
			}
			sort.Ints(live)
			if len(live) == 0 {
				return nil
			}
			return live
		}
	}
	t, err := scanProcs()
	if err != nil {
		return nil
	}
	var pids []int
	for _, p := range h.members(t) {
		if !p.zombie {
			pids = append(pids, p.pid)
		}
	}
	sort.Ints(pids)
	return pids
}

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

// members returns the current tree of h in t and remembers it, so that
// processes seen once stay attributed after they re-parent or setsid.
func (h *Handle) members(t *procTable) map[int]procInfo {
	set, _ := h.tree(t)
	return set
}

// tree is members, also telling whether an orphan re-parented to us could
// not be told apart yet (its environment unreadable while it starts).
func (h *Handle) tree(t *procTable) (map[int]procInfo, bool) {
	self := h.r.self
	set := make(map[int]procInfo)
	if p, ok := t.lookup(procKey{h.pid, h.startTicks}); ok {
		set[p.pid] = p
	}
	for _, p := range t.all {
		if p.pid != self && (p.sid == h.pid || p.pgid == h.pid) {
			set[p.pid] = p
		}
	}
	h.mu.Lock()
	for k := range h.history {
		if p, ok := t.lookup(k); ok {
			set[p.pid] = p
		}
	}
	h.mu.Unlock()
	// Orphans re-parented to us (subreaper) or to init carry our tag, or
	// escaped from our tree without it (escapeeOf).
	orphans := t.children[self]
	if !h.r.subreaper {
		orphans = append(append([]int(nil), orphans...), t.children[1]...)
	}
	unknown := false
	for _, i := range orphans {
		p := t.all[i]
		if _, ok := set[p.pid]; ok || p.zombie {
			continue
		}
		v, tagged, known := environValue(p, TagEnv)
		if (tagged && v == h.tag) || (known && !tagged && h.r.escapeeOf(h, p)) {
			set[p.pid] = p
		}
		unknown = unknown || !known
	}
	t.descendants(set, func(p procInfo) bool { return p.pid == self })
	hist := make(map[procKey]struct{}, len(set))
	for _, p := range set {
		hist[p.key()] = struct{}{}
	}
	h.mu.Lock()
	h.history = hist
	h.mu.Unlock()
	return set, unknown
}

// seen reports whether k was part of the tree at the last snapshot.
func (h *Handle) seen(k procKey) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.history[k]
	return ok
}
