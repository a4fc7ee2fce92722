package proc

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// Start spawns s.Path in a new PTY (raw mode, window s.Cols x s.Rows) in
// its own session and process group and returns its handle. Canceling ctx
// later stops the child with ReasonCanceled.
//
// Start returns an error wrapping ErrInvalidSpec for a bad spec (missing
// Dir or Path, unknown Stdin mode, negative limits), ErrRunnerClosed after
// Shutdown, ctx.Err() when ctx is already done, and the underlying error
// when the executable cannot be found or started or the transcript cannot
// be opened. On error nothing is left running.
func (r *Runner) Start(ctx context.Context, s Spec) (*Handle, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return nil, fmt.Errorf("start: %w", ErrRunnerClosed)
	}
	env, path, err := r.prepare(&s)
	if err != nil {
		return nil, err
	}
	var transcript *os.File
	created := false
	if s.TranscriptPath != "" {
		if err := os.MkdirAll(filepath.Dir(s.TranscriptPath), 0o700); err != nil {
			return nil, fmt.Errorf("start: transcript dir: %w", err)
		}
		_, statErr := os.Lstat(s.TranscriptPath)
		created = errors.Is(statErr, fs.ErrNotExist)
		transcript, err = os.OpenFile(s.TranscriptPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("start: transcript: %w", err)
		}
	}
	h, err := r.spawn(s, path, env, transcript)
	if err != nil {
		if transcript != nil {
			transcript.Close()
			if created {
				os.Remove(s.TranscriptPath)
			}
		}
		return nil, err
	}
	go h.supervise(ctx)
	return h, nil
}

// prepare validates s, fills its defaults and returns the child's
// environment and resolved executable path.
func (r *Runner) prepare(s *Spec) ([]string, string, error) {
	switch {
	case s.Path == "":
		return nil, "", fmt.Errorf("start: %w: empty path", ErrInvalidSpec)
	case s.Dir == "":
		return nil, "", fmt.Errorf("start: %w: empty dir", ErrInvalidSpec)
	case s.Stdin < StdinNull || s.Stdin > StdinPTY:
		return nil, "", fmt.Errorf("start: %w: stdin mode %d", ErrInvalidSpec, int(s.Stdin))
	case s.IdleTimeout < 0 || s.MaxRuntime < 0 || s.OutputLimit < 0 || s.Grace < 0:
		return nil, "", fmt.Errorf("start: %w: negative limit", ErrInvalidSpec)
	}
	for _, kv := range s.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" || strings.IndexByte(kv, 0) >= 0 {
			return nil, "", fmt.Errorf("start: %w: env entry %q", ErrInvalidSpec, kv)
		}
	}
	if st, err := os.Stat(s.Dir); err != nil {
		return nil, "", fmt.Errorf("start: dir: %w", err)
	} else if !st.IsDir() {
		return nil, "", fmt.Errorf("start: %w: %s is not a directory", ErrInvalidSpec, s.Dir)
	}
	if s.Cols == 0 {
		s.Cols = DefaultCols
	}
	if s.Rows == 0 {
		s.Rows = DefaultRows
	}
	if s.Grace == 0 {
		s.Grace = DefaultGrace
	}
	env := mergeEnv(s.Env, r.opts.BaseEnv)
	path, err := lookPath(s.Path, s.Dir, envValue(env, "PATH"))
	if err != nil {
		return nil, "", fmt.Errorf("start: %w", err)
	}
	return env, path, nil
}

// mergeEnv returns explicit (the last entry of a repeated key wins, at
// the position of its first) plus the base entries whose keys explicit
// does not set. A caller-supplied TagEnv is dropped: Start sets its own.
func mergeEnv(explicit, base []string) []string {
	idx := make(map[string]int, len(explicit)+len(base))
	out := make([]string, 0, len(explicit)+len(base)+1)
	add := func(kv string, override bool) {
		k, _, _ := strings.Cut(kv, "=")
		if k == TagEnv {
			return
		}
		if i, ok := idx[k]; ok {
			if override {
				out[i] = kv
			}
			return
		}
		idx[k] = len(out)
		out = append(out, kv)
	}
	for _, kv := range explicit {
		add(kv, true)
	}
	for _, kv := range base {
		add(kv, false)
	}
	return out
}

func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, _ := strings.Cut(env[i], "="); k == key {
			return v
		}
	}
	return ""
}

// lookPath resolves file like a shell would, but with the child's PATH.
func lookPath(file, dir, path string) (string, error) {
	if strings.Contains(file, "/") {
		p := file
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if err := executable(p); err != nil {
			return "", fmt.Errorf("executable %s: %w", file, err)
		}
		return p, nil
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = "."
		}
		p := filepath.Join(d, file)
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if executable(p) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("executable %s: %w", file, exec.ErrNotFound)
}

func executable(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	if st.IsDir() || st.Mode()&0o111 == 0 {
		return os.ErrPermission
	}
	return nil
}

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
