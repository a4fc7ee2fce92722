package proc

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// FindTagged lists the live processes whose StepEnv value starts with
// prefix, plus their live descendants (which may have scrubbed their
// environment), sorted by pid. This process is never listed.
func FindTagged(prefix string) ([]Tagged, error) {
	t, err := scanProcs()
	if err != nil {
		return nil, err
	}
	found := findTagged(t, prefix, os.Getpid())
	out := make([]Tagged, 0, len(found))
	for _, f := range found {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out, nil
}

func findTagged(t *procTable, prefix string, self int) map[int]Tagged {
	found := map[int]Tagged{}
	set := map[int]procInfo{}
	for _, p := range t.all {
		if p.pid == self || p.zombie {
			continue
		}
		if v, ok, _ := environValue(p, StepEnv); ok && strings.HasPrefix(v, prefix) {
			set[p.pid] = p
			found[p.pid] = Tagged{PID: p.pid, Start: p.start, Tag: v}
		}
	}
	tagged := make(map[int]procInfo, len(set))
	for k, v := range set {
		tagged[k] = v
	}
	t.descendants(set, func(p procInfo) bool { return p.pid == self })
	for pid, p := range set {
		if p.zombie {
			continue
		}
		if _, ok := found[pid]; ok {
			continue
		}
		// Attribute an untagged descendant to its nearest tagged ancestor.
		tag := ""
		for q, ok := lookupPid(t, p.ppid); ok && q.pid > 1; q, ok = lookupPid(t, q.ppid) {
			if _, isTagged := tagged[q.pid]; isTagged {
				tag = found[q.pid].Tag
				break
			}
		}
		found[pid] = Tagged{PID: pid, Start: p.start, Tag: tag}
	}
	for pid, f := range found {
		f.Command = cmdline(pid)
		found[pid] = f
	}
	return found
}

func lookupPid(t *procTable, pid int) (procInfo, bool) {
	i, ok := t.byPid[pid]
	if !ok {
		return procInfo{}, false
	}
	return t.all[i], true
}

// KillTagged stops every live process whose StepEnv value starts with
// prefix, and their descendants: SIGTERM, then SIGKILL after grace (zero
// means DefaultGrace). Recovery calls it before touching a dead run's
// worktrees. It returns the processes it found alive at the start, and an
// error wrapping ErrInvalidSpec for an empty prefix or ErrSurvivors when
// something outlived SIGKILL.
func KillTagged(prefix string, grace time.Duration) ([]Tagged, error) {
	if prefix == "" || strings.ContainsAny(prefix, "=\x00") {
		return nil, fmt.Errorf("kill tagged %q: %w", prefix, ErrInvalidSpec)
	}
	if grace <= 0 {
		grace = DefaultGrace
	}
	self := os.Getpid()
	t, err := scanProcs()
	if err != nil {
		return nil, err
	}
	first := findTagged(t, prefix, self)
	if len(first) == 0 {
		return nil, nil
	}
	out := make([]Tagged, 0, len(first))
	known := make(map[procKey]bool, len(first))
	for _, f := range first {
		out = append(out, f)
		known[procKey{f.PID, f.Start}] = true
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	killAt := time.Now().Add(grace)
	k := treeKill{
		members: func(t *procTable) (map[int]procInfo, bool) {
			set := make(map[int]procInfo)
			unknown := false
			for _, p := range t.all {
				if p.pid == self {
					continue
				}
				if known[p.key()] {
					set[p.pid] = p
					continue
				}
				if p.zombie {
					continue
				}
				v, ok, told := environValue(p, StepEnv)
				if ok && strings.HasPrefix(v, prefix) {
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
		return out, fmt.Errorf("kill tagged: %w", err)
	}
	return out, nil
}

// StartTimes returns the start time (clock ticks since boot) of each live
// pid, for recording next to the pids so that a later process signals a
// recorded pid only while it still names the same process. Gone pids are
// left out.
func StartTimes(pids ...int) map[int]uint64 {
	out := make(map[int]uint64, len(pids))
	for _, pid := range pids {
		if _, seen := out[pid]; seen || pid <= 0 {
			continue
		}
		if p, ok := readStat(pid); ok && !p.zombie {
			out[pid] = p.start
		}
	}
	return out
}

// KillRecorded stops the processes a dead run recorded: each recorded pid
// whose process still has the recorded start time, the whole process group
// pgid when its leader (pid == pgid) is such a process, and all their
// descendants; SIGTERM, then SIGKILL after grace. A pid without a recorded
// start time, or whose start time differs (the pid was reused), is never
// signalled. It returns the processes it found alive and matching, and
// errors wrapping ErrUnsafeTarget (a pid or group of init or of this
// process) or ErrSurvivors.
func KillRecorded(pgid int, starts map[int]uint64, grace time.Duration) ([]Tagged, error) {
	self := os.Getpid()
	if pgid == 1 || (pgid > 1 && (pgid == self || pgid == ownGroup())) {
		return nil, fmt.Errorf("kill recorded pgid %d: %w", pgid, ErrUnsafeTarget)
	}
	if grace <= 0 {
		grace = DefaultGrace
	}
	t, err := scanProcs()
	if err != nil {
		return nil, err
	}
	roots := map[int]procInfo{}
	for pid, start := range starts {
		if pid <= 1 || pid == self {
			continue
		}
		if p, ok := lookupPid(t, pid); ok && p.start == start && !p.zombie {
			roots[pid] = p
		}
	}
	group := 0
	if _, ok := roots[pgid]; ok && pgid > 1 {
		group = pgid
	}
	member := func(t *procTable) map[int]procInfo {
		set := make(map[int]procInfo)
		for _, p := range t.all {
			if p.pid == self {
				continue
			}
			if r, ok := roots[p.pid]; ok && r.start == p.start {
				set[p.pid] = p
			} else if group > 0 && p.pgid == group {
				set[p.pid] = p
			}
		}
		t.descendants(set, func(p procInfo) bool { return p.pid == self })
		return set
	}
	var found []Tagged
	for pid, p := range member(t) {
		if !p.zombie {
			found = append(found, Tagged{PID: pid, Start: p.start, Command: cmdline(pid)})
		}
	}
	if len(found) == 0 {
		return nil, nil
	}
	sort.Slice(found, func(i, j int) bool { return found[i].PID < found[j].PID })
	var groups []int
	if group > 0 {
		groups = []int{group}
	}
	killAt := time.Now().Add(grace)
	members := func(t *procTable) (map[int]procInfo, bool) { return member(t), false }
	k := treeKill{members: members, pgids: groups, killAt: func() time.Time { return killAt }, now: time.Now}
	if _, err := k.run(); err != nil {
		return found, fmt.Errorf("kill recorded: %w", err)
	}
	return found, nil
}

// cmdline returns the process's command line with spaces between the
// arguments, at most 200 bytes.
func cmdline(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(bytes.ReplaceAll(bytes.TrimRight(b, "\x00"), []byte{0}, []byte{' '})))
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "…"
	}
	return s
}

func ownGroup() int { return unix.Getpgrp() }
