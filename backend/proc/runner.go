package proc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// sigchldCoalesce is the pause after a SIGCHLD-triggered reap; signals
// arriving meanwhile collapse into one more scan.
const sigchldCoalesce = 10 * time.Millisecond

// RunnerOptions configure a Runner. Zero values pick the defaults.
type RunnerOptions struct {
	// Logger receives warnings (failed transcript writes, survivors); default slog.Default().
	Logger *slog.Logger
	// Now is the clock for timestamps and watchdogs; default time.Now.
	Now func() time.Time
	// BaseEnv is the minimal environment added for keys a Spec does not set.
	// Default: PATH and HOME of this process (or fallbacks),
	// TERM=xterm-256color and LANG=C.UTF-8.
	BaseEnv []string
	// NoSubreaper leaves PR_SET_CHILD_SUBREAPER unset (double-forked
	// daemons then escape to init and are found only by their tag).
	NoSubreaper bool
	// MaxBacklog caps the output bytes waiting for a slow OnChunk; default 8 MiB.
	MaxBacklog int
	// Filter, when set, makes a Filter for each child: its output passes
	// through it before the transcript and OnChunk (the app scrubs secrets
	// there). An incomplete line it holds back is flushed after 500 ms of
	// silence and when the output ends.
	Filter func() Filter
	// TrackInterval is how often live trees are snapshotted so that
	// escapees are remembered; default 1 s.
	TrackInterval time.Duration
	// ReapForeignOrphans also reaps zombies adopted (as subreaper) from
	// outside our handles' trees, such as daemons of other tools the app
	// ran (git gc --auto), when they are in another session than this
	// process. Only safe when nothing else in the app starts children with
	// Setsid through os/exec: their Wait would lose the exit status.
	ReapForeignOrphans bool
	// DrainTimeout bounds how long output is still read after the tree is
	// gone (a process outside the tree may hold the PTY); default 2 s.
	DrainTimeout time.Duration
	// Scope names the data root whose work the Runner runs (Scope of its
	// path): its children's cgroups are kept where KillStaleCgroups(scope)
	// in a later process finds them after a crash. Empty for a Runner no
	// recovery looks after (a command's own verify run, tests).
	Scope string
	// NoCgroup makes the Runner track trees without cgroups (as the
	// subreaper, with /proc scans) even where it could use them; so does
	// NoCgroupEnv=1 in the environment.
	NoCgroup bool
}

// Runner owns the live handles of one app. It is safe for concurrent use.
// On Linux it makes this process a child subreaper and reaps the orphans
// it adopts from its handles' trees, never touching exit statuses of
// direct children (its own or anyone else's).
type Runner struct {
	opts      RunnerOptions
	log       *slog.Logger
	now       func() time.Time
	id        string
	self      int
	selfSid   int
	subreaper bool

	// cg is where children get their cgroups; nil without (see
	// Mechanism). cgWhy says why there is none.
	cg    *cgroupSite
	cgWhy string

	mu          sync.Mutex
	closed      bool
	reapForeign bool // at Shutdown: every adopted zombie in another session is ours
	seq         int
	firstStart  uint64 // start time (clock ticks) of the first child started, 0 before
	handles     map[*Handle]struct{}
	direct      map[int]bool     // pids of the direct children we started and still wait for
	sessions    map[int]struct{} // session ids of our handles, live or ended, still in use

	bgCancel context.CancelFunc
	bgDone   chan struct{}
	shutOnce sync.Once
	sigchld  chan os.Signal
}

// NewRunner makes a Runner and starts its reaper. Call Shutdown when done.
func NewRunner(opts RunnerOptions) *Runner {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.BaseEnv == nil {
		opts.BaseEnv = defaultBaseEnv()
	}
	if opts.MaxBacklog <= 0 {
		opts.MaxBacklog = 8 << 20
	}
	if opts.TrackInterval <= 0 {
		opts.TrackInterval = time.Second
	}
	if opts.DrainTimeout <= 0 {
		opts.DrainTimeout = 2 * time.Second
	}
	var idb [6]byte
	_, _ = rand.Read(idb[:])
	r := &Runner{
		opts:     opts,
		log:      opts.Logger,
		now:      opts.Now,
		id:       hex.EncodeToString(idb[:]),
		self:     os.Getpid(),
		selfSid:  selfSession(),
		handles:  make(map[*Handle]struct{}),
		direct:   make(map[int]bool),
		sessions: make(map[int]struct{}),
		bgDone:   make(chan struct{}),
		sigchld:  make(chan os.Signal, 1),
	}
	switch {
	case opts.NoCgroup:
		r.cgWhy = "turned off"
	case os.Getenv(NoCgroupEnv) == "1":
		r.cgWhy = "turned off by " + NoCgroupEnv + "=1"
	default:
		var err error
		if r.cg, err = openCgroupSite(opts.Scope, r.id, r.self); err != nil {
			r.cgWhy = err.Error()
		} else {
			r.cg.removeDead()
		}
	}
	// With cgroups nothing needs adopting: an orphan stays in its cgroup.
	if r.cg == nil && !opts.NoSubreaper {
		r.becomeSubreaper()
	}
	r.log.Info("proc: process trees", "mechanism", r.Mechanism())
	ctx, cancel := context.WithCancel(context.Background())
	r.bgCancel = cancel
	signal.Notify(r.sigchld, unix.SIGCHLD)
	go r.background(ctx)
	return r
}

// becomeSubreaper makes orphans of our children's trees re-parent to us.
func (r *Runner) becomeSubreaper() {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		r.log.Warn("proc: cannot become child subreaper", "err", err)
	} else {
		r.subreaper = true
	}
}

// Mechanism says how the Runner keeps track of its children's trees:
// "cgroup v2 (<dir>)" — each child in a cgroup of its own, which none of
// its descendants can leave — or, without a usable cgroup v2 tree,
// "subreaper + /proc scans (no cgroup: <why>)" (see the package doc for
// what each guarantees).
func (r *Runner) Mechanism() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cg != nil {
		return "cgroup v2 (" + r.cg.dir + ")"
	}
	m := "/proc scans"
	if r.subreaper {
		m = "subreaper + /proc scans"
	}
	return m + " (no cgroup: " + r.cgWhy + ")"
}

// disableCgroupsLocked stops putting children in cgroups after the kernel
// refused to start one in its cgroup: the later ones are tracked by the
// scans, as the subreaper. Called with r.mu held.
func (r *Runner) disableCgroupsLocked(err error) {
	r.log.Warn("proc: cannot start children in cgroups; tracking them by /proc scans", "dir", r.cg.dir, "err", err)
	r.cg.close()
	r.cg = nil
	r.cgWhy = "starting a child in one failed: " + err.Error()
	if !r.opts.NoSubreaper {
		r.becomeSubreaper()
	}
}

func defaultBaseEnv() []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		home = "/"
	}
	return []string{"PATH=" + path, "HOME=" + home, "TERM=xterm-256color", "LANG=C.UTF-8"}
}

// background reaps adopted zombies on SIGCHLD and snapshots live trees
// every TrackInterval so that escapees stay attributed to their handle.
func (r *Runner) background(ctx context.Context) {
	defer close(r.bgDone)
	tick := time.NewTicker(r.opts.TrackInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.sigchld:
			r.reapChildren()
			// Coalesce a burst of SIGCHLDs (a dying fork storm) into few scans.
			select {
			case <-ctx.Done():
				return
			case <-time.After(sigchldCoalesce):
			}
		case <-tick.C:
			r.mu.Lock()
			live := make([]*Handle, 0, len(r.handles))
			for h := range r.handles {
				if h.cg == nil { // a cgroup's member cannot escape unseen
					live = append(live, h)
				}
			}
			r.mu.Unlock()
			if len(live) == 0 {
				continue
			}
			t, err := scanProcs()
			if err != nil {
				continue
			}
			r.reap(t, true)
			for _, h := range live {
				h.members(t)
			}
		}
	}
}

// reap waits for zombies this process adopted from our handles' trees:
// children of ours that are not direct children we started, and whose
// session or group is one of our handles' or whose identity was seen in a
// handle's tree (or, with ReapForeignOrphans, that live in another
// session than this process). Everything else (children started elsewhere
// in the app) is left to its own Wait.
func (r *Runner) reap(t *procTable, full bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, i := range t.children[r.self] {
		p := t.all[i]
		if !p.zombie || r.direct[p.pid] || !r.adoptedLocked(p) {
			continue
		}
		var ws unix.WaitStatus
		_, _ = unix.Wait4(p.pid, &ws, unix.WNOHANG, nil)
	}
	// Forget session ids nobody uses any more, so a recycled id is not ours
	// (only the whole table can tell).
	if !full {
		return
	}
	for sid := range r.sessions {
		if r.direct[sid] {
			continue
		}
		inUse := false
		for _, p := range t.all {
			if p.sid == sid || p.pgid == sid {
				inUse = true
				break
			}
		}
		if !inUse {
			delete(r.sessions, sid)
		}
	}
}

// reapChildren reaps after a SIGCHLD. Reading this process's children
// alone is enough, unless a session of an ended handle may have to be
// forgotten: that needs the whole process table (once per handle's end,
// not once per child, e.g. every git call).
func (r *Runner) reapChildren() {
	if !r.subreaper && r.self != 1 && !isSubreaper() {
		return // nothing is adopted: each child is waited for by whoever started it
	}
	r.mu.Lock()
	stale := false
	for sid := range r.sessions {
		stale = stale || !r.direct[sid]
	}
	r.mu.Unlock()
	if !stale {
		if t, ok := scanChildren(r.self); ok {
			r.reap(t, false)
			return
		}
	}
	if t, err := scanProcs(); err == nil {
		r.reap(t, true)
	}
}

func (r *Runner) adoptedLocked(p procInfo) bool {
	if (r.opts.ReapForeignOrphans || r.reapForeign) && p.sid != r.selfSid {
		return true
	}
	for h := range r.handles {
		if h.cg != nil && h.cg.holds(p.pid) {
			return true
		}
	}
	if _, ok := r.sessions[p.sid]; ok {
		return true
	}
	if _, ok := r.sessions[p.pgid]; ok {
		return true
	}
	for h := range r.handles {
		if h.seen(p.key()) {
			return true
		}
	}
	return false
}

// Shutdown stops every live handle with ReasonShutdown (SIGTERM, then
// SIGKILL after grace; zero means DefaultGrace), waits until every tree is
// gone, and stops the reaper. Start fails with ErrRunnerClosed afterwards.
// It is safe to call more than once; later calls wait for the first.
func (r *Runner) Shutdown(grace time.Duration) {
	if grace <= 0 {
		grace = DefaultGrace
	}
	r.mu.Lock()
	r.closed = true
	live := make([]*Handle, 0, len(r.handles))
	for h := range r.handles {
		live = append(live, h)
	}
	r.mu.Unlock()
	deadline := r.now().Add(grace)
	for _, h := range live {
		h.stop(ReasonShutdown, grace)
	}
	for _, h := range live {
		h.Wait()
	}
	r.shutOnce.Do(func() {
		r.endEscapees(deadline)
		r.bgCancel()
		<-r.bgDone
		signal.Stop(r.sigchld)
		if t, err := scanProcs(); err == nil {
			r.reap(t, true)
		}
		r.mu.Lock()
		cg := r.cg
		r.mu.Unlock()
		if cg != nil {
			cg.close()
		}
	})
	<-r.bgDone
}

// Live returns the number of handles not yet torn down.
func (r *Runner) Live() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.handles)
}

func (r *Runner) forget(h *Handle) {
	r.mu.Lock()
	delete(r.handles, h)
	r.mu.Unlock()
}

func selfSession() int {
	sid, err := unix.Getsid(0)
	if err != nil {
		return -1
	}
	return sid
}
