package proc

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"syscall"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// makeRaw puts the terminal in raw mode (cfmakeraw): no echo, no
// canonical line editing, no signals from control bytes, no output
// post-processing such as \n -> \r\n.
func makeRaw(f *os.File) error {
	fd := int(f.Fd())
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
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
	if err := unix.IoctlSetTermios(fd, unix.TCSETS, t); err != nil {
		return fmt.Errorf("set termios: %w", err)
	}
	return nil
}

// spawn opens the PTY, starts the child and registers it.
func (r *Runner) spawn(s Spec, path string, env []string, transcript *os.File) (*Handle, error) {
	master, tty, err := openPTY()
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
	// Holding r.mu across Start keeps the reaper from seeing the new child
	// before it is registered as a direct child.
	cmd, cg, err := r.startLocked(s, path, env, tty, stdinR, strconv.Itoa(r.seq))
	if err != nil {
		r.mu.Unlock()
		closeAll(master, tty, stdinR, stdinW)
		return nil, fmt.Errorf("start %s: %w", s.Path, err)
	}
	pid := cmd.Process.Pid
	h := newHandle(r, s, cmd, tag, master, stdinW, transcript)
	h.history = make(map[procKey]struct{})
	h.cg = cg
	if p, ok := readStat(pid); ok {
		h.startTicks = p.start
		if r.firstStart == 0 {
			r.firstStart = p.start
		}
	}
	r.direct[pid] = true
	if cg == nil {
		// The session and group identify the tree for the scans (a cgroup
		// needs neither).
		r.sessions[pid] = struct{}{}
	}
	r.handles[h] = struct{}{}
	r.mu.Unlock()

	closeAll(tty, stdinR)
	return h, nil
}

// command builds the child's exec.Cmd: stdout and stderr the PTY, stdin
// per the spec, its own session with the PTY as controlling terminal.
func command(s Spec, path string, env []string, tty, stdinR *os.File) *exec.Cmd {
	cmd := &exec.Cmd{
		Path:   path,
		Args:   append([]string{s.Path}, s.Args...),
		Dir:    s.Dir,
		Env:    env,
		Stdout: tty,
		Stderr: tty,
		// Ctty is a descriptor number in the child: 0 when stdin is the
		// PTY, otherwise stdout (1).
		SysProcAttr: &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1},
	}
	switch s.Stdin {
	case StdinPTY:
		cmd.Stdin = tty
		cmd.SysProcAttr.Ctty = 0
	case StdinPipe:
		cmd.Stdin = stdinR
	}
	return cmd
}

// startLocked starts the child, in a cgroup of its own when the Runner
// uses cgroups (it is born in it: no fork of it can happen outside). When
// the cgroup cannot be made or the kernel refuses to start a child in it,
// the child is started without one and, for the second, the Runner stops
// using cgroups (see disableCgroupsLocked). Called with r.mu held.
func (r *Runner) startLocked(s Spec, path string, env []string, tty, stdinR *os.File, seq string) (*exec.Cmd, *stepCgroup, error) {
	if r.cg != nil {
		c, fd, err := r.cg.newStep(stepCgroupName(seq, envValue(env, StepEnv)))
		if err != nil {
			r.log.Warn("proc: child started without a cgroup", "err", err)
		} else {
			cmd := command(s, path, env, tty, stdinR)
			cmd.SysProcAttr.UseCgroupFD = true
			cmd.SysProcAttr.CgroupFD = fd
			err = cmd.Start()
			unix.Close(fd)
			if err == nil {
				return cmd, &c, nil
			}
			_ = c.remove()
			// The same start without the cgroup tells whether the cgroup
			// was the reason.
			cmd = command(s, path, env, tty, stdinR)
			if cmd.Start() != nil {
				return nil, nil, err
			}
			r.disableCgroupsLocked(err)
			return cmd, nil, nil
		}
	}
	cmd := command(s, path, env, tty, stdinR)
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	return cmd, nil, nil
}

// stepCgroupName is "<seq>" or "<seq>@<step tag, path-escaped>", so that
// recovery can say which step a survivor belonged to.
func stepCgroupName(seq, stepTag string) string {
	if stepTag == "" {
		return seq
	}
	name := seq + "@" + url.PathEscape(stepTag)
	if len(name) > 200 {
		return seq
	}
	return name
}
