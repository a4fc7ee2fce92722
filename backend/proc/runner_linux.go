package proc

import (
	"context"
	"os"
	"os/signal"
	"time"

	"golang.org/x/sys/unix"
)

// osRunner is how a Runner tracks trees on Linux: cgroups, or the
// subreaper and /proc scans.
type osRunner struct {
	selfSid   int
	subreaper bool

	// cg is where children get their cgroups; nil without (see
	// Mechanism). cgWhy says why there is none.
	cg    *cgroupSite
	cgWhy string

	// Guarded by Runner.mu:
	reapForeign bool             // at Shutdown: every adopted zombie in another session is ours
	firstStart  uint64           // start time (clock ticks) of the first child started, 0 before
	sessions    map[int]struct{} // session ids of our handles, live or ended, still in use

	sigchld chan os.Signal
}

// initOS sets up cgroups, or else makes this process the subreaper.
func (r *Runner) initOS() {
	opts := r.opts
	r.selfSid = selfSession()
	r.sessions = make(map[int]struct{})
	r.sigchld = make(chan os.Signal, 1)
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
}

// startBackground starts the reaper.
func (r *Runner) startBackground(ctx context.Context) {
	signal.Notify(r.sigchld, unix.SIGCHLD)
	go r.background(ctx)
}

// stopOS ends the escapees, stops the reaper, reaps what is left and
// closes the cgroup site (once, at Shutdown).
func (r *Runner) stopOS(deadline time.Time) {
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
}

// sigchldCoalesce is the pause after a SIGCHLD-triggered reap; signals
// arriving meanwhile collapse into one more scan.
const sigchldCoalesce = 10 * time.Millisecond

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

func selfSession() int {
	sid, err := unix.Getsid(0)
	if err != nil {
		return -1
	}
	return sid
}

// osBaseEnv adds nothing on Linux to the base environment.
func osBaseEnv() []string { return nil }
