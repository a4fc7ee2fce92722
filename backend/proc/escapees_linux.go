package proc

import "time"

// Without cgroups the Runner is a child subreaper: every process its
// children's trees start stays a descendant of this process whatever it
// does with its session, environment or working directory, since an
// orphan is handed to us, not to init. What the scans cannot always tell
// is which child's tree an orphan came from once it has left its session
// and dropped its tag between two snapshots — a `setsid env -u …` helper
// whose parent exited at once. Such an escapee (a child of ours that we
// did not start, in a session that is neither ours nor a child's, with no
// TagEnv) can only come from a tree that was live when it started: it is
// counted in a child's tree when that child is the only live one that
// started no later than it did. With several such children it is left
// until all but one have ended; Shutdown ends whatever is left
// (endEscapees), so nothing outlives the Runner.

// escapeeOf reports whether p, an orphan adopted by this process and
// carrying no TagEnv, belongs to h's tree by the rule above.
func (r *Runner) escapeeOf(h *Handle, p procInfo) bool {
	if !r.subreaper || p.ppid != r.self || p.sid == r.selfSid || h.startTicks > p.start {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.direct[p.pid] {
		return false
	}
	if _, ok := r.sessions[p.sid]; ok {
		return false // a child's session: attributed through it
	}
	for g := range r.handles {
		if g == h {
			continue
		}
		if g.cg != nil {
			if g.cg.holds(p.pid) {
				return false
			}
			continue
		}
		if g.startTicks <= p.start {
			return false
		}
	}
	return true
}

// endEscapees ends, at Shutdown once every handle is done, the orphans
// adopted from the children's trees that no handle could claim: every
// child of ours in another session that we did not start and that started
// after our first child did, and its descendants (SIGTERM, SIGKILL at
// killAt). Nothing else in the app starts children of its own in a new
// session (gitx keeps ours), so they came from our children's trees; one
// older than our first child cannot have.
func (r *Runner) endEscapees(killAt time.Time) {
	r.mu.Lock()
	subreaper, first := r.subreaper, r.firstStart
	r.reapForeign = true // no handle is left to tell its zombies apart
	r.mu.Unlock()
	if !subreaper || first == 0 {
		return
	}
	seen := make(map[procKey]bool)
	found := -1
	k := treeKill{
		members: func(t *procTable) (map[int]procInfo, bool) {
			set := make(map[int]procInfo)
			r.mu.Lock()
			for _, i := range t.children[r.self] {
				if p := t.all[i]; !r.direct[p.pid] && p.sid != r.selfSid && p.start >= first {
					set[p.pid] = p
				}
			}
			r.mu.Unlock()
			for _, p := range t.all {
				if seen[p.key()] {
					set[p.pid] = p
				}
			}
			t.descendants(set, func(p procInfo) bool { return p.pid == r.self })
			if found < 0 {
				found = 0
				for _, p := range set {
					if !p.zombie {
						found++
					}
				}
			}
			for _, p := range set {
				seen[p.key()] = true
			}
			return set, false
		},
		killAt:    func() time.Time { return killAt },
		onScan:    func(t *procTable) { r.reap(t, true) },
		awaitReap: true,
		self:      r.self,
		now:       r.now,
	}
	if survivors, err := k.run(); err != nil {
		r.log.Warn("proc: escaped processes not fully stopped", "survivors", survivors, "err", err)
	} else if found > 0 {
		r.log.Warn("proc: stopped processes that had left their step's tree", "count", found)
	}
}
