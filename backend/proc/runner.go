package proc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"os"
	"sync"
	"time"
)

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
	opts RunnerOptions
	log  *slog.Logger
	now  func() time.Time
	id   string
	self int

	mu      sync.Mutex
	closed  bool
	seq     int
	handles map[*Handle]struct{}
	direct  map[int]bool // pids of the direct children we started and still wait for

	bgCancel context.CancelFunc
	bgDone   chan struct{}
	shutOnce sync.Once

	osRunner // how this OS tracks trees (runner_<os>.go)
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
		opts:    opts,
		log:     opts.Logger,
		now:     opts.Now,
		id:      hex.EncodeToString(idb[:]),
		self:    os.Getpid(),
		handles: make(map[*Handle]struct{}),
		direct:  make(map[int]bool),
		bgDone:  make(chan struct{}),
	}
	r.initOS()
	r.log.Info("proc: process trees", "mechanism", r.Mechanism())
	ctx, cancel := context.WithCancel(context.Background())
	r.bgCancel = cancel
	r.startBackground(ctx)
	return r
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
	return append([]string{"PATH=" + path, "HOME=" + home, "TERM=xterm-256color", "LANG=C.UTF-8"}, osBaseEnv()...)
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
		r.stopOS(deadline)
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
