// Package gitx is the one helper through which Boof Runner runs git.
//
// Every call runs `git -C <dir> ...` with a context, a bounded wait, an
// explicit environment (LC_ALL=C, no prompts, no pager) and captured output.
// Failures come back as *Error values that match the package's sentinel
// errors with errors.Is; this is the only package that reads git's stderr.
package gitx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Git runs git commands. It is safe for concurrent use; one value should be
// shared by everything that touches the same repositories so that LockRepo
// serializes them.
type Git struct {
	bin       string
	env       []string
	attempts  int
	delay     time.Duration
	sleep     func(ctx context.Context, d time.Duration) error
	waitDelay time.Duration
	timeout   time.Duration
	// interruptGrace bounds a critical section once its caller's context
	// has ended (Critical).
	interruptGrace time.Duration

	mu    sync.Mutex
	locks map[string]chan struct{}

	commons commonCache
}

// Option configures a Git.
type Option func(*Git)

// WithBinary sets the git executable (default "git", looked up in PATH).
func WithBinary(path string) Option { return func(g *Git) { g.bin = path } }

// WithEnv adds KEY=VALUE pairs to the environment of every git call.
func WithEnv(kv ...string) Option {
	return func(g *Git) { g.env = append(g.env, kv...) }
}

// WithLockRetry sets how often a command that lost a race for a git lock
// file (index.lock, a ref lock) is tried in all, and the first pause
// between tries; the pause doubles each time. attempts < 1 means 1.
func WithLockRetry(attempts int, delay time.Duration) Option {
	return func(g *Git) { g.attempts, g.delay = attempts, delay }
}

// WithSleep replaces the pause used between lock retries. It must return
// ctx.Err() when the context ends first.
func WithSleep(f func(ctx context.Context, d time.Duration) error) Option {
	return func(g *Git) { g.sleep = f }
}

// WithTimeout bounds every command: one still running after d (a hook that
// hangs, say) is stopped with its whole process group and returns an error
// matching ErrTimeout. Zero (the default) means no deadline besides ctx.
func WithTimeout(d time.Duration) Option { return func(g *Git) { g.timeout = d } }

// WithGrace sets how long a stopped command's process group has between
// SIGTERM (git removes its lock files on it) and SIGKILL; default 10 s.
func WithGrace(d time.Duration) Option {
	return func(g *Git) {
		if d > 0 {
			g.waitDelay = d
		}
	}
}

// New returns a Git with the given options applied. By default a command
// that hits a held lock file is tried 8 times over about 2.5 seconds.
func New(opts ...Option) *Git {
	g := &Git{
		bin:       "git",
		attempts:  8,
		delay:     20 * time.Millisecond,
		sleep:     sleepCtx,
		waitDelay: 10 * time.Second,
		locks:     map[string]chan struct{}{},

		interruptGrace: InterruptGrace,
	}
	for _, o := range opts {
		o(g)
	}
	if g.attempts < 1 {
		g.attempts = 1
	}
	return g
}

// Cmd is one git invocation.
type Cmd struct {
	// Dir is passed as `git -C Dir`; it must not be empty.
	Dir string
	// Args are the git arguments after `-C Dir`.
	Args []string
	// Env holds extra KEY=VALUE pairs for this call only (GIT_INDEX_FILE ...).
	Env []string
	// Input is fed to stdin; nil means an empty stdin.
	Input []byte
	// Stdout, when set, receives stdout as it is produced instead of the
	// returned slice. Such a command is never retried.
	Stdout io.Writer
	// Network marks a command that talks to a remote (push, ls-remote): it
	// runs in a session of its own, without a controlling terminal, so no
	// credential helper or ssh can ask for anything there, and ssh runs in
	// batch mode unless the user configured an ssh command (netEnv).
	Network bool
}

// Run runs `git -C dir args...` and returns its stdout.
// Errors are *Error (see Exec).
func (g *Git) Run(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return g.Exec(ctx, Cmd{Dir: dir, Args: args})
}

// RunEnv is Run with extra environment entries for this call.
func (g *Git) RunEnv(ctx context.Context, dir string, env []string, args ...string) ([]byte, error) {
	return g.Exec(ctx, Cmd{Dir: dir, Args: args, Env: env})
}

// Exec runs c and returns its stdout. A command that fails because another
// process holds index.lock or a ref lock is retried with backoff. A non-zero
// exit is returned as *Error, which matches ErrNotARepo, ErrUnknownRef,
// ErrIndexLocked, ErrRefLocked, ErrRefMoved ... with errors.Is. A git that
// cannot be started, or a context that ends, is returned wrapped.
func (g *Git) Exec(ctx context.Context, c Cmd) ([]byte, error) {
	if c.Dir == "" {
		return nil, fmt.Errorf("git %s: %w", verb(c.Args), ErrNoDir)
	}
	delay := g.delay
	for try := 1; ; try++ {
		out, err := g.once(ctx, c)
		if err == nil || try >= g.attempts || c.Stdout != nil || !isLockBusy(err) {
			return out, err
		}
		if serr := g.sleep(ctx, delay); serr != nil {
			return out, err
		}
		delay *= 2
	}
}

func (g *Git) once(ctx context.Context, c Cmd) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("git %s: %w", verb(c.Args), err)
	}
	parent := ctx
	if g.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, g.timeout)
		defer cancel()
	}
	args := append([]string{"--no-pager", "-C", c.Dir}, c.Args...)
	cmd := exec.CommandContext(ctx, g.bin, args...)
	cmd.Env = g.environ(append(ctxEnv(parent), c.Env...))
	ownGroup(cmd, c.Network)
	if c.Network {
		cmd.Env = append(cmd.Env, netEnv(cmd.Env)...)
	}
	cmd.WaitDelay = g.waitDelay
	if c.Input != nil {
		cmd.Stdin = bytes.NewReader(c.Input)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	if c.Stdout != nil {
		cmd.Stdout = c.Stdout
	}
	cmd.Stderr = &stderr
	err := cmd.Run()
	if cmd.Process != nil {
		endGroup(cmd)
	}
	if err == nil {
		return stdout.Bytes(), nil
	}
	if parent.Err() != nil {
		return nil, fmt.Errorf("git %s: %w", verb(c.Args), parent.Err())
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("git %s: stopped after %s: %w", verb(c.Args), g.timeout, ErrTimeout)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return nil, fmt.Errorf("git %s: %w", verb(c.Args), err)
	}
	return stdout.Bytes(), &Error{
		Dir:      c.Dir,
		Args:     append([]string(nil), c.Args...),
		ExitCode: ee.ExitCode(),
		Stderr:   strings.TrimSpace(stderr.String()),
	}
}

type envKey struct{}

// WithCallEnv returns a context whose git commands get the KEY=VALUE pairs
// kv in their environment (after the Git's own, so they win), e.g. the
// step tag that lets crash recovery find them.
func WithCallEnv(ctx context.Context, kv ...string) context.Context {
	prev := ctxEnv(ctx)
	return context.WithValue(ctx, envKey{}, append(append([]string(nil), prev...), kv...))
}

func ctxEnv(ctx context.Context) []string {
	env, _ := ctx.Value(envKey{}).([]string)
	return env
}

// scrubbed are inherited variables that would point git at another
// repository, index or object store than the one named by -C.
var scrubbed = []string{
	"GIT_DIR=", "GIT_WORK_TREE=", "GIT_INDEX_FILE=", "GIT_OBJECT_DIRECTORY=",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES=", "GIT_COMMON_DIR=", "GIT_NAMESPACE=",
	"GIT_PREFIX=", "GIT_LITERAL_PATHSPECS=", "GIT_GLOB_PATHSPECS=",
	"GIT_NOGLOB_PATHSPECS=", "GIT_ICASE_PATHSPECS=", "LC_ALL=", "LANG=", "LANGUAGE=",
}

func (g *Git) environ(extra []string) []string {
	base := os.Environ()
	env := make([]string, 0, len(base)+len(g.env)+len(extra)+6)
outer:
	for _, kv := range base {
		for _, p := range scrubbed {
			if strings.HasPrefix(kv, p) {
				continue outer
			}
		}
		env = append(env, kv)
	}
	env = append(env,
		"LC_ALL=C", "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "PAGER=cat",
		"GIT_ASKPASS=", "SSH_ASKPASS=", "GIT_EDITOR=true", "GIT_OPTIONAL_LOCKS=0")
	env = append(env, g.env...)
	return append(env, extra...)
}

func verb(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return "command"
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
