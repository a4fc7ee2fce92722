package proc

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// treeKill describes one tree to terminate.
type treeKill struct {
	// members returns the current members of the tree (zombies included),
	// and whether a process that may belong to it could not be told yet
	// (its environment unreadable while it starts; see readEnviron).
	members func(t *procTable) (set map[int]procInfo, unknown bool)
	// pgids are process groups signaled as a whole while they have live
	// members, which also catches processes forked between two scans.
	pgids []int
	// termed lists groups that already got SIGTERM before run started.
	termed []int
	// killAt returns when SIGTERM turns into SIGKILL; it may move earlier.
	killAt func() time.Time
	// onScan runs on every full snapshot (used to reap adopted zombies).
	onScan func(t *procTable)
	// awaitReap makes the tree count as gone only once no member is a
	// zombie that is, or will be, re-parented to self (the runner reaps
	// those). A multi-threaded parent shows as a zombie before its
	// children are handed over, so a zombie child of a zombie is pending.
	awaitReap bool
	self      int
	now       func() time.Time
}

// fullScanEvery is how often the dying tree is looked for in the whole
// process table (new forks, escapees); in between only the known members
// are checked, which is much cheaper.
const fullScanEvery = 50 * time.Millisecond

// run sends SIGTERM (and SIGCONT) to every member and group once, rescans
// until the tree is gone or killAt passes, then sends SIGKILL until it is
// gone. It returns the pids still alive when it gave up. The tree counts
// as gone only after a full scan finds no live member.
func (k treeKill) run() ([]int, error) {
	termSent := make(map[procKey]bool)
	groupTermed := make(map[int]bool)
	for _, g := range k.termed {
		groupTermed[g] = true
	}
	delay := time.Millisecond
	var giveUp, lastFull, unknownUntil time.Time
	var alive []procInfo
	for {
		full := lastFull.IsZero() || len(alive) == 0 || k.now().Sub(lastFull) >= fullScanEvery
		if full {
			t, err := scanProcs()
			if err != nil {
				return nil, err
			}
			if k.onScan != nil {
				k.onScan(t)
			}
			lastFull = k.now()
			alive = alive[:0]
			ms, unknown := k.members(t)
			pending := false
			for _, p := range ms {
				if !p.zombie {
					alive = append(alive, p)
				} else if k.awaitReap && k.unreaped(p, ms) {
					pending = true
				}
			}
			if len(alive) == 0 {
				if unknown {
					// Look again until the newcomer can be told apart.
					if unknownUntil.IsZero() {
						unknownUntil = k.now().Add(unknownLimit)
					}
					if k.now().Before(unknownUntil) {
						time.Sleep(time.Millisecond)
						continue
					}
				}
				if !pending {
					return nil, nil
				}
				if k.now().After(k.killAt().Add(killPhaseLimit)) {
					return nil, fmt.Errorf("%w: zombies not handed over", ErrSurvivors)
				}
				time.Sleep(time.Millisecond)
				continue
			}
		} else if alive = stillAlive(alive); len(alive) == 0 {
			continue // confirm with a full scan
		}
		now := k.now()
		killing := !now.Before(k.killAt())
		if killing {
			if giveUp.IsZero() {
				giveUp = now.Add(killPhaseLimit)
			} else if now.After(giveUp) {
				pids := make([]int, len(alive))
				for i, p := range alive {
					pids[i] = p.pid
				}
				sort.Ints(pids)
				return pids, fmt.Errorf("%w: %v", ErrSurvivors, pids)
			}
		}
		k.signal(alive, killing, termSent, groupTermed)
		wait := delay
		if d := k.killAt().Sub(k.now()); !killing && d > 0 && d < wait {
			wait = d
		}
		time.Sleep(wait)
		if delay < maxPoll {
			delay *= 2
		}
	}
}

// signal sends SIGTERM+SIGCONT once per process and group, or SIGKILL to
// all when killing.
func (k treeKill) signal(alive []procInfo, killing bool, termSent map[procKey]bool, groupTermed map[int]bool) {
	sig := unix.SIGTERM
	if killing {
		sig = unix.SIGKILL
	}
	signaled := make(map[int]bool, len(k.pgids))
	for _, g := range k.pgids {
		if g <= 1 || (groupTermed[g] && !killing) || !hasGroup(alive, g) {
			continue
		}
		groupTermed[g] = true
		signaled[g] = true
		_ = unix.Kill(-g, sig)
		if !killing {
			_ = unix.Kill(-g, unix.SIGCONT)
		}
	}
	for _, p := range alive {
		if signaled[p.pgid] || (!killing && termSent[p.key()]) {
			// The group signal reached it (atomically, forks included).
			termSent[p.key()] = true
			continue
		}
		termSent[p.key()] = true
		signalProc(p, sig)
		if !killing {
			signalProc(p, unix.SIGCONT)
		}
	}
}

// stillAlive re-reads each process and keeps those that exist, are the
// same process and are not zombies.
func stillAlive(ps []procInfo) []procInfo {
	out := ps[:0]
	var buf [512]byte
	for _, p := range ps {
		if q, ok := readStatBuf(p.pid, buf[:]); ok && q.start == p.start && !q.zombie {
			out = append(out, q)
		}
	}
	return out
}

// unreaped reports whether zombie p is ours to reap: it is our child,
// or the child of a dead member and so about to be re-parented to us.
func (k treeKill) unreaped(p procInfo, ms map[int]procInfo) bool {
	if p.ppid == k.self {
		return true
	}
	parent, ok := ms[p.ppid]
	return ok && parent.zombie
}

func hasGroup(ps []procInfo, pgid int) bool {
	for _, p := range ps {
		if p.pgid == pgid {
			return true
		}
	}
	return false
}

// signalProc signals exactly the process p describes: through a pidfd
// whose target is checked against p's start time, so a recycled pid is
// never hit.
func signalProc(p procInfo, sig unix.Signal) {
	fd, err := unix.PidfdOpen(p.pid, 0)
	if errors.Is(err, unix.ENOSYS) {
		if q, ok := readStat(p.pid); ok && q.start == p.start {
			_ = unix.Kill(p.pid, sig)
		}
		return
	}
	if err != nil {
		return
	}
	defer unix.Close(fd)
	if q, ok := readStat(p.pid); !ok || q.start != p.start {
		return
	}
	_ = unix.PidfdSendSignal(fd, sig, nil, 0)
}

// KillTree stops a process tree left by a previous (dead) run, found by its
// recorded process group and pids: every live process in the group, every
// listed pid and all their descendants get SIGTERM, then SIGKILL after
// grace (zero means DefaultGrace). It returns nil when nothing is left
// (also when nothing was running), an error wrapping ErrUnsafeTarget for a
// pgid or pid of 1 or less or belonging to this process, and an error
// wrapping ErrSurvivors when something outlived SIGKILL.
func KillTree(pgid int, pids []int, grace time.Duration) error {
	self := os.Getpid()
	selfPgid := unix.Getpgrp()
	if pgid < 0 || pgid == 1 || (pgid != 0 && (pgid == self || pgid == selfPgid)) {
		return fmt.Errorf("kill tree pgid %d: %w", pgid, ErrUnsafeTarget)
	}
	for _, pid := range pids {
		if pid <= 1 || pid == self {
			return fmt.Errorf("kill tree pid %d: %w", pid, ErrUnsafeTarget)
		}
	}
	if grace <= 0 {
		grace = DefaultGrace
	}
	killAt := time.Now().Add(grace)
	var groups []int
	if pgid > 1 {
		groups = []int{pgid}
	}
	k := treeKill{
		members: func(t *procTable) (map[int]procInfo, bool) {
			set := make(map[int]procInfo)
			for _, p := range t.all {
				if pgid > 1 && p.pgid == pgid && p.pid != self {
					set[p.pid] = p
				}
			}
			for _, pid := range pids {
				if i, ok := t.byPid[pid]; ok {
					set[pid] = t.all[i]
				}
			}
			t.descendants(set, func(p procInfo) bool { return p.pid == self })
			return set, false
		},
		pgids:  groups,
		killAt: func() time.Time { return killAt },
		now:    time.Now,
	}
	if _, err := k.run(); err != nil {
		return fmt.Errorf("kill tree: %w", err)
	}
	return nil
}

// KillTag stops every process on the host whose environment carries
// TagEnv=tag (see Handle.Tag), plus their descendants: SIGTERM, then
// SIGKILL after grace (zero means DefaultGrace). Crash recovery uses it to
// find processes of a dead run that left their group and were re-parented
// to init. It returns an error wrapping ErrInvalidSpec for an empty tag
// and ErrSurvivors when something outlived SIGKILL.
func KillTag(tag string, grace time.Duration) error {
	if tag == "" || strings.ContainsAny(tag, "=\x00") {
		return fmt.Errorf("kill tag %q: %w", tag, ErrInvalidSpec)
	}
	if grace <= 0 {
		grace = DefaultGrace
	}
	self := os.Getpid()
	kv := TagEnv + "=" + tag
	killAt := time.Now().Add(grace)
	known := make(map[procKey]bool)
	k := treeKill{
		members: func(t *procTable) (map[int]procInfo, bool) {
			set := make(map[int]procInfo)
			unknown := false
			for _, p := range t.all {
				if p.pid == self || p.zombie {
					continue
				}
				if known[p.key()] {
					set[p.pid] = p
					continue
				}
				has, told := environHas(p, kv)
				if has {
					known[p.key()] = true
					set[p.pid] = p
				}
				unknown = unknown || !told
			}
			t.descendants(set, func(p procInfo) bool { return p.pid == self })
			return set, unknown
		},
		killAt: func() time.Time { return killAt },
		now:    time.Now,
	}
	if _, err := k.run(); err != nil {
		return fmt.Errorf("kill tag: %w", err)
	}
	return nil
}
