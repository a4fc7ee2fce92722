package qwen

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// Start runs one step: qwen in req.Dir with the prompt on stdin, in a new
// session (its own QWEN_HOME) or in req.ResumeSession's. It returns an error
// matching agent.ErrNotInstalled when qwen cannot be found; ErrNoRunner,
// ErrNoDir, ErrEmptyPrompt, ErrBadText, ErrBadModel, ErrSystemPromptTooLong,
// ErrBadSession, ErrSessionGone or ErrSessionBusy (wrapped) for a request
// that cannot run; and the runner's error when the process cannot start.
// Nothing is left running when it returns an error.
func (t *Tool) Start(ctx context.Context, req agent.Request) (agent.Run, error) {
	r, err := t.start(ctx, req, false)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return r, nil
}

// start is Start; an ephemeral run (the health check) keeps its home in a
// temp dir it removes and records no chat.
func (t *Tool) start(ctx context.Context, req agent.Request, ephemeral bool) (*run, error) {
	if t.opts.Runner == nil {
		return nil, ErrNoRunner
	}
	if req.Dir == "" {
		return nil, fmt.Errorf("start qwen: %w", ErrNoDir)
	}
	if strings.TrimSpace(req.Prompt) == "" {
		return nil, fmt.Errorf("start qwen: %w", ErrEmptyPrompt)
	}
	if !utf8.ValidString(req.Prompt) || strings.IndexByte(req.Prompt, 0) >= 0 {
		return nil, fmt.Errorf("start qwen: %w", ErrBadText)
	}
	dir, err := filepath.Abs(req.Dir)
	if err != nil {
		return nil, fmt.Errorf("start qwen: %w", err)
	}
	env := t.cli().Environ(req.Env)
	bin, err := t.cli().ResolveBin(env)
	if err != nil {
		return nil, err
	}
	resume := req.ResumeSession != ""
	session := req.ResumeSession
	if !resume {
		if session, err = newSessionID(); err != nil {
			return nil, err
		}
	}
	args, err := buildArgs(params{model: req.Model, system: req.SystemPrompt, session: session, resume: resume,
		readOnly: req.ReadOnly, readDirs: req.ReadDirs, maxWall: req.MaxRuntime, ephemeral: ephemeral})
	if err != nil {
		return nil, fmt.Errorf("start qwen: %w", err)
	}
	h, cleanup, err := t.runHome(env, session, resume, ephemeral)
	if err != nil {
		return nil, fmt.Errorf("start qwen: %w", err)
	}
	// The user's ~/.qwen is not read: qwen rewrites a settings file it
	// reads in an older format (as system defaults too, measured), so the
	// key comes from the environment only.
	env = append(env, "QWEN_HOME="+h.dir, "QWEN_RUNTIME_DIR="+h.dir, "QWEN_CODE_SUPPRESS_YOLO_WARNING=1")
	emit := req.OnEvent
	if emit == nil {
		emit = func(agent.Event) {}
	}
	r := &run{parser: NewParser(emit), sent: 1}
	r.LineRun = agent.NewLineRun(agent.LineRunConfig{
		Runner: t.opts.Runner,
		Spec: proc.Spec{Path: bin, Args: args, Dir: dir, Env: env, Stdin: proc.StdinPipe,
			TranscriptPath: req.TranscriptPath, IdleTimeout: req.IdleTimeout, MaxRuntime: req.MaxRuntime, Grace: req.Grace},
		OnOutput: req.OnOutput,
		OnLine:   r.line,
		Finish: func(pr proc.Result) agent.Result {
			res := r.finish(pr, emit)
			if !resume && res.SessionID == "" && !ephemeral {
				_ = os.RemoveAll(h.dir) // qwen recorded nothing: no session to resume
			}
			return res
		},
		Cleanup: cleanup,
	})
	if err := r.LineRun.Start(ctx); err != nil {
		return nil, fmt.Errorf("qwen: %w", err)
	}
	// A write error means qwen is not reading (it failed at start, or was
	// stopped); its output and exit then tell what happened.
	if b, err := encodeUser(req.Prompt); err == nil {
		_ = r.WriteInput(b)
	}
	return r, nil
}

// runHome opens the run's QWEN_HOME and returns the cleanup that releases
// it (and removes an ephemeral one).
func (t *Tool) runHome(env []string, session string, resume, ephemeral bool) (*home, func(), error) {
	base := ""
	if ephemeral {
		tmp, err := os.MkdirTemp(t.opts.TempDir, "qwen-health-*")
		if err != nil {
			return nil, nil, fmt.Errorf("qwen health home: %w", err)
		}
		base = tmp
	} else {
		b, err := t.homesDir(env)
		if err != nil {
			return nil, nil, err
		}
		base = b
	}
	h, err := openHome(base, session, resume)
	if err != nil {
		if ephemeral {
			_ = os.RemoveAll(base)
		}
		return nil, nil, err
	}
	return h, func() {
		h.close()
		if ephemeral {
			_ = os.RemoveAll(base)
		}
	}, nil
}

// run is a live qwen step.
type run struct {
	*agent.LineRun
	parser *Parser // used by the output goroutine, then by Finish

	mu      sync.Mutex
	sent    int  // user messages written (the prompt and follow-ups)
	results int  // result lines seen: one per answered message
	closed  bool // stdin closed: every message was answered

	limitStop atomic.Bool // the adapter ended qwen's own rate-limit retries
	userStop  atomic.Bool // Stop was called from outside
}

var _ agent.Run = (*run)(nil)

// line parses one output line; once every message is answered it closes
// stdin (qwen then exits), and at qwen's first rate-limit retry event it
// ends the run as a usage limit instead of waiting out many minutes of
// retries.
func (r *run) line(b []byte) {
	p := r.parser
	before := p.out
	p.Line(b)
	if p.out.Results > before.Results {
		r.mu.Lock()
		r.results = p.out.Results
		done := !r.closed && r.results >= r.sent
		if done {
			r.closed = true
		}
		r.mu.Unlock()
		if done {
			r.CloseInput()
		}
	}
	if p.out.RateLimited && !before.RateLimited && r.limitStop.CompareAndSwap(false, true) {
		go r.LineRun.Stop(proc.ReasonStopped)
	}
}

// Send writes text to qwen as a follow-up user message: qwen answers it
// as another turn of the session before the step ends. It returns
// agent.ErrRunDone once every message was answered and stdin is closed.
func (r *run) Send(text string) error {
	b, err := encodeUser(text)
	if err != nil {
		return fmt.Errorf("encode input: %w", err)
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return agent.ErrRunDone
	}
	r.sent++
	r.mu.Unlock()
	return r.WriteInput(b)
}

// Stop ends the step's process tree for reason; it is idempotent.
func (r *run) Stop(reason proc.Reason) {
	r.userStop.Store(true)
	r.LineRun.Stop(reason)
}
