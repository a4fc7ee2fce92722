package proc

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// procInfo is one line of the process table, read from /proc/<pid>/stat.
type procInfo struct {
	pid, ppid, pgid, sid int
	start                uint64 // start time in clock ticks since boot
	zombie               bool
}

// procKey identifies a process across pid reuse.
type procKey struct {
	pid   int
	start uint64
}

func (p procInfo) key() procKey { return procKey{p.pid, p.start} }

// readStat parses /proc/<pid>/stat. ok is false when the process is gone.
func readStat(pid int) (procInfo, bool) {
	var buf [512]byte
	return readStatBuf(pid, buf[:])
}

// readStatBuf is readStat with a caller-owned buffer. It uses raw
// syscalls: os.ReadFile costs two more per file (stat, poller setup),
// which dominates a scan of the whole process table.
func readStatBuf(pid int, buf []byte) (procInfo, bool) {
	fd, err := unix.Open("/proc/"+strconv.Itoa(pid)+"/stat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return procInfo{}, false
	}
	n, err := unix.Read(fd, buf)
	unix.Close(fd)
	if err != nil || n <= 0 {
		return procInfo{}, false
	}
	p, err := parseStat(buf[:n])
	if err != nil {
		return procInfo{}, false
	}
	return p, true
}

// parseStat parses the stat line; comm may hold spaces and parentheses,
// so fields are counted from the last ')'.
func parseStat(b []byte) (procInfo, error) {
	var p procInfo
	open := bytes.IndexByte(b, '(')
	end := bytes.LastIndexByte(b, ')')
	if open < 1 || end < open || end+2 > len(b) {
		return p, errors.New("parse stat: malformed")
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil {
		return p, fmt.Errorf("parse stat pid: %w", err)
	}
	f := bytes.Fields(b[end+2:])
	// After comm: state(0) ppid(1) pgrp(2) session(3) ... starttime(19).
	if len(f) < 20 {
		return p, errors.New("parse stat: short")
	}
	p.pid = pid
	p.zombie = f[0][0] == 'Z' || f[0][0] == 'X'
	if p.ppid, err = strconv.Atoi(string(f[1])); err != nil {
		return p, fmt.Errorf("parse stat ppid: %w", err)
	}
	if p.pgid, err = strconv.Atoi(string(f[2])); err != nil {
		return p, fmt.Errorf("parse stat pgid: %w", err)
	}
	if p.sid, err = strconv.Atoi(string(f[3])); err != nil {
		return p, fmt.Errorf("parse stat sid: %w", err)
	}
	if p.start, err = strconv.ParseUint(string(f[19]), 10, 64); err != nil {
		return p, fmt.Errorf("parse stat start: %w", err)
	}
	return p, nil
}

// procTable is one snapshot of every process on the host.
//
// We read /proc ourselves rather than use gopsutil's Process.Children:
// on Linux that forks `pgrep -P` once per process, far too slow (and
// fork-dependent) for walking a 200-process storm while it is being killed,
// and it cannot see processes that left the tree (setsid, re-parenting).
// One pass over /proc/<pid>/stat gives parent, group and session of all.
type procTable struct {
	all      []procInfo
	byPid    map[int]int   // pid -> index into all
	children map[int][]int // ppid -> indexes into all
}

// scanProcs reads the whole process table. Processes that vanish during the
// scan are skipped.
func scanProcs() (*procTable, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, fmt.Errorf("scan /proc: %w", err)
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, fmt.Errorf("scan /proc: %w", err)
	}
	t := &procTable{
		all:      make([]procInfo, 0, len(names)),
		byPid:    make(map[int]int, len(names)),
		children: make(map[int][]int, len(names)),
	}
	var buf [512]byte
	for _, n := range names {
		if n == "" || n[0] < '0' || n[0] > '9' {
			continue
		}
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		p, ok := readStatBuf(pid, buf[:])
		if !ok {
			continue
		}
		t.byPid[pid] = len(t.all)
		t.children[p.ppid] = append(t.children[p.ppid], len(t.all))
		t.all = append(t.all, p)
	}
	return t, nil
}

// lookup returns the process with this key if it is still in the table.
func (t *procTable) lookup(k procKey) (procInfo, bool) {
	i, ok := t.byPid[k.pid]
	if !ok || t.all[i].start != k.start {
		return procInfo{}, false
	}
	return t.all[i], true
}

// descendants adds every descendant of the processes in set to set.
func (t *procTable) descendants(set map[int]procInfo, stop func(procInfo) bool) {
	queue := make([]int, 0, len(set))
	for pid := range set {
		queue = append(queue, pid)
	}
	for len(queue) > 0 {
		pid := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, i := range t.children[pid] {
			c := t.all[i]
			if _, seen := set[c.pid]; seen || stop(c) {
				continue
			}
			set[c.pid] = c
			queue = append(queue, c.pid)
		}
	}
}
