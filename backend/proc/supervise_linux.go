package proc

import (
	"errors"

	"golang.org/x/sys/unix"
)

// teardown ends the child's whole tree (SIGTERM to its group at once when
// a stop was asked for while it ran), waits for the child's own exit and
// removes its cgroup.
func (h *Handle) teardown(stopping bool, exited <-chan struct{}) {
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
