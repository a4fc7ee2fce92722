//go:build darwin || windows

package proc

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/shirou/gopsutil/v4/process"
)

// The process layer of macOS and Windows: no /proc, no cgroups, no
// subreaper. A live child's tree is its process group (macOS) or its Job
// Object (Windows); what a later process finds of a dead run's processes
// it finds through gopsutil's process table: by the step tag in their
// environment (where the OS lets us read it) and by recorded pid and
// start time.

// pinfo is one process of a table snapshot. start is its creation time in
// milliseconds since the epoch: with pid it names one process.
type pinfo struct {
	pid, ppid int
	start     uint64
	p         *process.Process
}

// snapshot lists the live processes.
func snapshot() (map[int]pinfo, error) {
	ps, err := process.Processes()
	if err != nil {
		return nil, fmt.Errorf("process table: %w", err)
	}
	out := make(map[int]pinfo, len(ps))
	for _, p := range ps {
		ppid, err := p.Ppid()
		if err != nil {
			continue // gone meanwhile
		}
		ct, _ := p.CreateTime()
		out[int(p.Pid)] = pinfo{pid: int(p.Pid), ppid: int(ppid), start: uint64(ct), p: p}
	}
	return out, nil
}

// descendantsOf adds to set every process below a member of set.
func descendantsOf(t map[int]pinfo, set map[int]pinfo) {
	for grew := true; grew; {
		grew = false
		for _, p := range t {
			if _, in := set[p.pid]; in {
				continue
			}
			// A parent started after its child is a reused pid, not the parent.
			if parent, ok := set[p.ppid]; ok && p.ppid != p.pid && parent.start <= p.start {
				set[p.pid] = p
				grew = true
			}
		}
	}
}

// tagOf returns p's StepEnv value ("" when it has none or its
// environment cannot be read).
func tagOf(p pinfo) string {
	env, err := p.p.Environ()
	if err != nil {
		return ""
	}
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, StepEnv+"="); ok {
			return v
		}
	}
	return ""
}

// envHas reports whether p's environment holds key=value.
func envHas(p pinfo, key, value string) bool {
	env, err := p.p.Environ()
	if err != nil {
		return false
	}
	for _, kv := range env {
		if kv == key+"="+value {
			return true
		}
	}
	return false
}

func tagged(p pinfo, tag string) Tagged {
	cmd, _ := p.p.Cmdline()
	return Tagged{PID: p.pid, Start: p.start, Tag: tag, Command: cmd}
}

// findTagged is FindTagged on snapshot t.
func findTagged(t map[int]pinfo, prefix string) map[int]Tagged {
	self := os.Getpid()
	found := make(map[int]Tagged)
	roots := make(map[int]pinfo)
	for _, p := range t {
		if p.pid == self {
			continue
		}
		if tag := tagOf(p); tag != "" && strings.HasPrefix(tag, prefix) {
			found[p.pid] = tagged(p, tag)
			roots[p.pid] = p
		}
	}
	set := make(map[int]pinfo, len(roots))
	for k, v := range roots {
		set[k] = v
	}
	descendantsOf(t, set)
	for _, p := range set {
		if _, ok := found[p.pid]; !ok && p.pid != self {
			parent := p.ppid
			for {
				if f, ok := found[parent]; ok {
					found[p.pid] = tagged(p, f.Tag)
					break
				}
				pp, ok := set[parent]
				if !ok {
					found[p.pid] = tagged(p, "")
					break
				}
				parent = pp.ppid
			}
		}
	}
	return found
}

func sortedTagged(m map[int]Tagged) []Tagged {
	out := make([]Tagged, 0, len(m))
	for _, f := range m {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// FindTagged lists the live processes whose StepEnv value starts with
// prefix, plus their live descendants, sorted by pid. This process is
// never listed. A process whose environment the OS does not let us read
// is found only as a descendant of one whose environment it does.
func FindTagged(prefix string) ([]Tagged, error) {
	t, err := snapshot()
	if err != nil {
		return nil, err
	}
	return sortedTagged(findTagged(t, prefix)), nil
}

// KillTagged stops every live process whose StepEnv value starts with
// prefix, and their descendants (see FindTagged): the OS's polite stop,
// then a forced one after grace (zero means DefaultGrace). It returns the
// processes found alive at the start.
func KillTagged(prefix string, grace time.Duration) ([]Tagged, error) {
	if prefix == "" {
		return nil, fmt.Errorf("kill tagged: %w: empty prefix", ErrInvalidSpec)
	}
	t, err := snapshot()
	if err != nil {
		return nil, fmt.Errorf("kill tagged: %w", err)
	}
	found := findTagged(t, prefix)
	victims := make(map[int]pinfo, len(found))
	for pid := range found {
		victims[pid] = t[pid]
	}
	if err := endProcesses(victims, grace); err != nil {
		return sortedTagged(found), fmt.Errorf("kill tagged: %w", err)
	}
	return sortedTagged(found), nil
}

// StartTimes returns the start time (milliseconds since the epoch on this
// OS) of each live pid, for recording next to the pids so that a later
// process signals a recorded pid only while it still names the same
// process. Gone pids are left out.
func StartTimes(pids ...int) map[int]uint64 {
	out := make(map[int]uint64, len(pids))
	for _, pid := range pids {
		p, err := process.NewProcess(int32(pid))
		if err != nil {
			continue
		}
		if ct, err := p.CreateTime(); err == nil {
			out[pid] = uint64(ct)
		}
	}
	return out
}

// KillRecorded stops the processes a dead run recorded: each recorded pid
// whose process still has the recorded start time, the group pgid when its
// leader is such a process (macOS), and all their descendants. It returns
// the processes it found alive and matching, and errors wrapping
// ErrUnsafeTarget (a pid of init or of this process) or ErrSurvivors.
func KillRecorded(pgid int, starts map[int]uint64, grace time.Duration) ([]Tagged, error) {
	self := os.Getpid()
	if pgid != 0 && (pgid <= 1 || pgid == self) {
		return nil, fmt.Errorf("kill recorded: %w: group %d", ErrUnsafeTarget, pgid)
	}
	t, err := snapshot()
	if err != nil {
		return nil, fmt.Errorf("kill recorded: %w", err)
	}
	set := make(map[int]pinfo)
	for pid, start := range starts {
		if pid <= 1 || pid == self {
			return nil, fmt.Errorf("kill recorded: %w: pid %d", ErrUnsafeTarget, pid)
		}
		if p, ok := t[pid]; ok && p.start == start {
			set[pid] = p
		}
	}
	addGroup(t, set, pgid)
	descendantsOf(t, set)
	delete(set, self)
	out := make(map[int]Tagged, len(set))
	for pid, p := range set {
		out[pid] = tagged(p, tagOf(p))
	}
	if err := endProcesses(set, grace); err != nil {
		return sortedTagged(out), fmt.Errorf("kill recorded: %w", err)
	}
	return sortedTagged(out), nil
}

// KillTree stops a process tree left by a previous (dead) run, found by
// its recorded group and pids and their descendants: the polite stop, then
// the forced one after grace. Errors wrap ErrUnsafeTarget or ErrSurvivors.
func KillTree(pgid int, pids []int, grace time.Duration) error {
	self := os.Getpid()
	if pgid <= 1 || pgid == self {
		return fmt.Errorf("kill tree: %w: group %d", ErrUnsafeTarget, pgid)
	}
	t, err := snapshot()
	if err != nil {
		return fmt.Errorf("kill tree: %w", err)
	}
	set := make(map[int]pinfo)
	for _, pid := range pids {
		if pid <= 1 || pid == self {
			return fmt.Errorf("kill tree: %w: pid %d", ErrUnsafeTarget, pid)
		}
		if p, ok := t[pid]; ok {
			set[pid] = p
		}
	}
	addGroup(t, set, pgid)
	descendantsOf(t, set)
	delete(set, self)
	if err := endProcesses(set, grace); err != nil {
		return fmt.Errorf("kill tree: %w", err)
	}
	return nil
}

// KillTag stops every process whose environment carries TagEnv=tag, plus
// their descendants (see Handle.Tag).
func KillTag(tag string, grace time.Duration) error {
	if tag == "" {
		return fmt.Errorf("kill tag: %w: empty tag", ErrInvalidSpec)
	}
	t, err := snapshot()
	if err != nil {
		return fmt.Errorf("kill tag: %w", err)
	}
	self := os.Getpid()
	set := make(map[int]pinfo)
	for _, p := range t {
		if p.pid != self && envHas(p, TagEnv, tag) {
			set[p.pid] = p
		}
	}
	descendantsOf(t, set)
	delete(set, self)
	if err := endProcesses(set, grace); err != nil {
		return fmt.Errorf("kill tag: %w", err)
	}
	return nil
}

// KillStaleCgroups has nothing to do on this OS (no cgroups): a dead
// run's processes are found by KillTagged and KillRecorded.
func KillStaleCgroups(scope string, _ time.Duration) ([]Tagged, error) {
	if scope == "" {
		return nil, fmt.Errorf("kill stale cgroups: %w: empty scope", ErrInvalidSpec)
	}
	return nil, nil
}

// errNoHolders is Holders' error on this OS: which process has a file
// open is not known, so callers keep the file (a lock stays in place).
var errNoHolders = fmt.Errorf("holders: %w on this OS", errors.ErrUnsupported)

// Holders cannot tell on this OS who has path open; it returns an error
// wrapping errors.ErrUnsupported, and callers leave the file alone.
func Holders(path string) ([]int, error) {
	return nil, fmt.Errorf("%w: %s", errNoHolders, path)
}

// endProcesses stops set: the polite stop (stopPolitely) now, the forced
// one (stopForced) for what is left after grace, and ErrSurvivors when
// something is still alive after that.
func endProcesses(set map[int]pinfo, grace time.Duration) error {
	if len(set) == 0 {
		return nil
	}
	if grace <= 0 {
		grace = DefaultGrace
	}
	for _, p := range set {
		stopPolitely(p.pid)
	}
	if waitGone(set, time.Now().Add(grace)) {
		return nil
	}
	for _, p := range set {
		if alive(p) {
			stopForced(p.pid)
		}
	}
	if waitGone(set, time.Now().Add(killPhaseLimit)) {
		return nil
	}
	var left []int
	for _, p := range set {
		if alive(p) {
			left = append(left, p.pid)
		}
	}
	sort.Ints(left)
	return fmt.Errorf("%w: %v", ErrSurvivors, left)
}

// alive reports whether p (pid and start time) still runs.
func alive(p pinfo) bool {
	q, err := process.NewProcess(int32(p.pid))
	if err != nil {
		return false
	}
	ct, err := q.CreateTime()
	if err != nil || uint64(ct) != p.start {
		return false
	}
	return !exitedZombie(q)
}

// waitGone polls until nothing of set is alive or the deadline passes.
func waitGone(set map[int]pinfo, deadline time.Time) bool {
	for delay := time.Millisecond; ; delay = min(delay*2, 50*time.Millisecond) {
		left := false
		for _, p := range set {
			if alive(p) {
				left = true
				break
			}
		}
		if !left {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(delay)
	}
}
