package proc

import (
	"fmt"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// endCgroup ends the child's tree through its cgroup: SIGTERM (and
// SIGCONT) to each member once, while the grace lasts, then cgroup.kill,
// until no live process is left. Nothing is scanned but the cgroup's own
// files: a member cannot leave it. It returns the pids still there when it
// gave up (after killPhaseLimit of SIGKILL, processes stuck in the kernel).
func (h *Handle) endCgroup() ([]int, error) {
	sent := make(map[int]bool)
	delay := time.Millisecond
	killed := false
	var giveUp time.Time
	for {
		live, err := h.cg.populated()
		if err != nil {
			return nil, err
		}
		if !live {
			return nil, nil
		}
		now := h.r.now()
		if !killed && !now.Before(h.getKillAt()) {
			if err := h.cg.kill(); err != nil {
				return nil, err
			}
			killed, giveUp = true, now.Add(killPhaseLimit)
		}
		if killed && now.After(giveUp) {
			pids, _ := h.cg.pids()
			return pids, fmt.Errorf("%w: %v", ErrSurvivors, pids)
		}
		if !killed {
			if _, err := h.cg.signal(unix.SIGTERM, sent); err != nil {
				return nil, err
			}
		}
		wait := delay
		if d := h.getKillAt().Sub(h.r.now()); !killed && d > 0 && d < wait {
			wait = d
		}
		time.Sleep(wait)
		if delay < maxPoll {
			delay *= 2
		}
	}
}

// reapCgroup reaps the zombies the emptied cgroup left to this process,
// when it is a subreaper (another Runner of the process made it one):
// orphans of the tree were handed to it. A process the kernel counts out
// of the cgroup may still be handing its children over, so this looks
// again while a child of ours from the cgroup is not a zombie yet.
func (h *Handle) reapCgroup() {
	if !isSubreaper() {
		return
	}
	deadline := h.r.now().Add(killPhaseLimit)
	for {
		t, ok := scanChildren(h.r.self)
		if !ok {
			return // the background reaper's full scans take them
		}
		pending := false
		h.r.mu.Lock()
		for _, p := range t.all {
			if h.r.direct[p.pid] || !h.cg.holds(p.pid) {
				continue
			}
			if !p.zombie {
				pending = true
				continue
			}
			var ws unix.WaitStatus
			_, _ = unix.Wait4(p.pid, &ws, unix.WNOHANG, nil)
		}
		h.r.mu.Unlock()
		if !pending || h.r.now().After(deadline) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// isSubreaper reports whether this process adopts orphans of its
// descendants (PR_SET_CHILD_SUBREAPER, set by a Runner without cgroups).
func isSubreaper() bool {
	var v int32
	if err := unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&v)), 0, 0, 0); err != nil {
		return true // unknown: look
	}
	return v != 0
}
