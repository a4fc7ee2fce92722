package proc

import (
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"syscall"
	"time"

	"github.com/creack/pty"
	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"
)

// treeMechanism: on macOS a child leads a session and process group of
// its own; its tree is that group plus every descendant found in the
// process table (gopsutil), remembered once seen.
const treeMechanism = "process group + process table (macOS)"

// osHandle is what macOS knows of a handle's tree.
type osHandle struct {
	start uint64         // the child's creation time (ms)
	seen  map[int]uint64 // pid -> start of every member seen; guarded by Handle.mu
}

// makeRaw puts the terminal in raw mode (cfmakeraw).
func makeRaw(f *os.File) error {
	fd := int(f.Fd())
	t, err := unix.IoctlGetTermios(fd, unix.TIOCGETA)
	if err != nil {
		return fmt.Errorf("get termios: %w", err)
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON | unix.IXOFF
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	if err := unix.IoctlSetTermios(fd, unix.TIOCSETA, t); err != nil {
		return fmt.Errorf("set termios: %w", err)
	}
	return nil
}

// spawn opens the PTY, starts the child in a session of its own and
// registers it.
func (r *Runner) spawn(s Spec, path string, env []string, transcript *os.File) (*Handle, error) {
	master, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("start: open pty: %w", err)
	}
	closeAll := func(fs ...*os.File) {
		for _, f := range fs {
			if f != nil {
				f.Close()
			}
		}
	}
	if err := makeRaw(tty); err != nil {
		closeAll(master, tty)
		return nil, fmt.Errorf("start: %w", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Cols: s.Cols, Rows: s.Rows}); err != nil {
		closeAll(master, tty)
		return nil, fmt.Errorf("start: set window size: %w", err)
	}
	var stdinR, stdinW *os.File
	if s.Stdin == StdinPipe {
		if stdinR, stdinW, err = os.Pipe(); err != nil {
			closeAll(master, tty)
			return nil, fmt.Errorf("start: stdin pipe: %w", err)
		}
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		closeAll(master, tty, stdinR, stdinW)
		return nil, fmt.Errorf("start: %w", ErrRunnerClosed)
	}
	r.seq++
	tag := r.id + "-" + strconv.Itoa(r.self) + "-" + strconv.Itoa(r.seq)
	env = append(env, TagEnv+"="+tag)
	cmd := &exec.Cmd{
		Path: path, Args: append([]string{s.Path}, s.Args...), Dir: s.Dir, Env: env,
		Stdout: tty, Stderr: tty,
		SysProcAttr: &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1},
	}
	switch s.Stdin {
	case StdinPTY:
		cmd.Stdin = tty
		cmd.SysProcAttr.Ctty = 0
	case StdinPipe:
		cmd.Stdin = stdinR
	}
	if err := cmd.Start(); err != nil {
		r.mu.Unlock()
		closeAll(master, tty, stdinR, stdinW)
		return nil, fmt.Errorf("start %s: %w", s.Path, err)
	}
	h := newHandle(r, s, cmd, tag, master, stdinW, transcript)
	h.seen = make(map[int]uint64)
	if st := StartTimes(h.pid); st != nil {
		h.start = st[h.pid]
	}
	r.direct[h.pid] = true
	r.handles[h] = struct{}{}
	r.mu.Unlock()
	closeAll(tty, stdinR)
	return h, nil
}

// Pgid returns the child's process group id (its pid: it leads a new session).
func (h *Handle) Pgid() int { return h.pid }

// Pids returns the live processes of the tree right now, sorted; nil once
// the tree is gone or the process table is unreadable.
func (h *Handle) Pids() []int {
	t, err := snapshot()
	if err != nil {
		return nil
	}
	var pids []int
	for pid := range h.members(t) {
		pids = append(pids, pid)
	}
	sort.Ints(pids)
	return pids
}

// members is the tree in t: the child's group, the descendants of the
// child and of everything seen before, remembered for the next call.
func (h *Handle) members(t map[int]pinfo) map[int]pinfo {
	set := make(map[int]pinfo)
	addGroup(t, set, h.pid)
	if p, ok := t[h.pid]; ok && p.start == h.start {
		set[h.pid] = p
	}
	h.mu.Lock()
	for pid, start := range h.seen {
		if p, ok := t[pid]; ok && p.start == start {
			set[pid] = p
		}
	}
	h.mu.Unlock()
	descendantsOf(t, set)
	for pid, p := range set {
		if p.p != nil && exitedZombie(p.p) {
			delete(set, pid)
		}
	}
	h.mu.Lock()
	for pid, p := range set {
		h.seen[pid] = p.start
	}
	h.mu.Unlock()
	return set
}

// addGroup adds the live members of process group pgid to set.
func addGroup(t map[int]pinfo, set map[int]pinfo, pgid int) {
	if pgid <= 1 {
		return
	}
	for pid, p := range t {
		if g, err := unix.Getpgid(pid); err == nil && g == pgid {
			set[pid] = p
		}
	}
}

func stopPolitely(pid int) {
	_ = unix.Kill(pid, unix.SIGTERM)
	_ = unix.Kill(pid, unix.SIGCONT)
}

func stopForced(pid int) { _ = unix.Kill(pid, unix.SIGKILL) }

// exitedZombie reports a process that has exited and waits to be reaped.
func exitedZombie(p *process.Process) bool {
	st, err := p.Status()
	if err != nil {
		return false
	}
	for _, s := range st {
		if s == process.Zombie {
			return true
		}
	}
	return false
}

// teardown ends the child's tree: SIGTERM to the group at once when a
// stop was asked for while it ran, SIGTERM to every other member found,
// SIGKILL to what is left at the kill deadline; then it waits for the
// child's own exit.
func (h *Handle) teardown(stopping bool, exited <-chan struct{}) {
	if stopping {
		_ = unix.Kill(-h.pid, unix.SIGTERM)
		_ = unix.Kill(-h.pid, unix.SIGCONT)
	}
	termed := map[int]bool{}
	for delay := time.Millisecond; ; delay = min(delay*2, maxPoll) {
		t, err := snapshot()
		if err != nil {
			h.r.log.Warn("proc: tree not fully stopped", "pid", h.pid, "err", err)
			break
		}
		set := h.members(t)
		if len(set) == 0 {
			break
		}
		now := h.r.now()
		killAt := h.getKillAt()
		if now.After(killAt.Add(killPhaseLimit)) {
			h.r.log.Warn("proc: tree not fully stopped", "pid", h.pid, "survivors", len(set), "err", ErrSurvivors)
			break
		}
		for pid := range set {
			switch {
			case !now.Before(killAt):
				stopForced(pid)
			case !termed[pid] && !(stopping && pid == h.pid):
				stopPolitely(pid)
				termed[pid] = true
			}
		}
		time.Sleep(delay)
	}
	<-exited
}

// osBaseEnv adds nothing on macOS to the base environment.
func osBaseEnv() []string { return nil }
