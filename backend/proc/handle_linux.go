package proc

import "sort"

// osHandle is what Linux knows of a handle's tree.
type osHandle struct {
	startTicks uint64
	cg         *stepCgroup          // the child's cgroup; nil without (see Runner.Mechanism)
	history    map[procKey]struct{} // guarded by Handle.mu
}

// Pgid returns the child's process group id (equal to its pid and its
// session id: the child leads a new session).
func (h *Handle) Pgid() int { return h.pid }

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
