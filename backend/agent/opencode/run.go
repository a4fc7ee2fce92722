package opencode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// Errors for bad requests; Start wraps them.
var (
	// ErrNoDir means the request has no working directory.
	ErrNoDir = errors.New("no working directory")
	// ErrEmptyPrompt means the request has no prompt.
	ErrEmptyPrompt = errors.New("empty prompt")
	// ErrBadText means a prompt or system prompt is not valid UTF-8 or holds a NUL byte.
	ErrBadText = errors.New("prompt is not valid UTF-8 text")
)

// limitQuiet is how long opencode may sit silent after a refused model call
// (a 429, a quota) before the step counts as a usage limit: opencode
// retries it itself, waiting as long as the server's retry-after says
// (hours for a used-up quota), printing nothing meanwhile. Its own backoff
// without retry-after gives up within about a minute, with an error event.
const limitQuiet = 2 * time.Minute

// Start runs one step: `opencode run` in req.Dir with the prompt on stdin,
// in a new session or in req.ResumeSession. It returns an error matching
// agent.ErrNotInstalled when opencode cannot be found; ErrNoRunner, ErrNoDir,
// ErrEmptyPrompt, ErrBadText, ErrBadModel, ErrBadSession or ErrSessionBusy
// (wrapped) for a request that cannot run; and the runner's error when
// the process cannot start. Nothing is left running when it returns an error.
func (t *Tool) Start(ctx context.Context, req agent.Request) (agent.Run, error) {
	r, err := t.start(ctx, req, limitQuiet)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return r, nil
}

// start is Start with the quiet time after a refusal that makes a limit.
func (t *Tool) start(ctx context.Context, req agent.Request, quiet time.Duration) (*run, error) {
	if t.opts.Runner == nil {
		return nil, ErrNoRunner
	}
	if req.Dir == "" {
		return nil, fmt.Errorf("start opencode: %w", ErrNoDir)
	}
	if strings.TrimSpace(req.Prompt) == "" {
		return nil, fmt.Errorf("start opencode: %w", ErrEmptyPrompt)
	}
	for _, s := range []string{req.Prompt, req.SystemPrompt} {
		if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
			return nil, fmt.Errorf("start opencode: %w", ErrBadText)
		}
	}
	dir, err := filepath.Abs(req.Dir)
	if err != nil {
		return nil, fmt.Errorf("start opencode: %w", err)
	}
	env := t.cli().Environ(req.Env)
	bin, err := t.cli().ResolveBin(env)
	if err != nil {
		return nil, err
	}
	req.Dir = dir
	st, err := t.prepare(env, req)
	if err != nil {
		return nil, fmt.Errorf("start opencode: %w", err)
	}
	emit := req.OnEvent
	if emit == nil {
		emit = func(agent.Event) {}
	}
	if st.warn != "" {
		emit(agent.Event{Kind: agent.EventRaw, Text: st.warn, IsError: true})
	}
	r := &run{parser: NewParser(emit), quiet: quiet}
	r.LineRun = agent.NewLineRun(agent.LineRunConfig{
		Runner: t.opts.Runner,
		Spec: proc.Spec{Path: bin, Args: st.args, Dir: dir, Env: append(env, st.env...), Stdin: proc.StdinPipe,
			TranscriptPath: req.TranscriptPath, IdleTimeout: req.IdleTimeout, MaxRuntime: req.MaxRuntime, Grace: req.Grace},
		OnOutput: req.OnOutput,
		OnLine:   r.line,
		Finish:   func(pr proc.Result) agent.Result { return r.finish(pr, req.ResumeSession, emit) },
		Cleanup:  func() { r.disarm(); st.cleanup() },
	})
	if err := r.LineRun.Start(ctx); err != nil {
		return nil, fmt.Errorf("opencode: %w", err)
	}
	// opencode reads its whole stdin as the prompt, verbatim (a prompt
	// given as arguments it would quote); a write error means it is not
	// reading, and its output and exit tell why.
	go func() {
		_ = r.WriteInput([]byte(req.Prompt))
		r.CloseInput()
	}()
	return r, nil
}

// setup is what a step runs with besides the request.
type setup struct {
	args    []string
	env     []string
	cleanup func()
	// warn says why the user's config file was left out ("" = it was not).
	warn string
}

// prepare builds a step's arguments and environment: its config home and
// config, the role prompt's file, the model, and the lock of a resumed
// session.
func (t *Tool) prepare(env []string, req agent.Request) (setup, error) {
	endpoint := t.cli().Lookup(env, "OPENAI_BASE_URL") != ""
	model, declare, err := resolveModel(req.Model, endpoint, t.cli().Lookup(env, "OPENAI_MODEL"), t.opts.Models)
	if err != nil {
		return setup{}, err
	}
	state, err := t.stateDir(env)
	if err != nil {
		return setup{}, err
	}
	home, err := t.configHome(env, state)
	if err != nil {
		return setup{}, err
	}
	var undo []func()
	cleanup := func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	args := []string{"run", "--format", "json", "--auto", "--print-logs", "--log-level", "ERROR", "--title", title(req)}
	if model != "" {
		args = append(args, "--model="+model)
	}
	if req.ResumeSession != "" {
		release, err := lockSession(state, req.ResumeSession)
		if err != nil {
			return setup{}, err
		}
		undo = append(undo, release)
		args = append(args, "--session="+req.ResumeSession)
	}
	instructions := ""
	if req.SystemPrompt != "" {
		f, err := os.CreateTemp(t.opts.TempDir, "opencode-role-*.md")
		if err != nil {
			cleanup()
			return setup{}, fmt.Errorf("role prompt file: %w", err)
		}
		undo = append(undo, func() { os.Remove(f.Name()) })
		_, werr := f.WriteString(req.SystemPrompt)
		if cerr := f.Close(); werr != nil || cerr != nil {
			cleanup()
			return setup{}, fmt.Errorf("role prompt file: %w", errors.Join(werr, cerr))
		}
		instructions = f.Name()
	}
	user, warn := t.ownConfigs(env, req.Dir)
	content, err := configContent(configParams{user: user, endpoint: endpoint, models: declare, instructions: instructions, readOnly: req.ReadOnly})
	if err != nil {
		cleanup()
		return setup{}, err
	}
	runEnv := []string{"XDG_CONFIG_HOME=" + home, "OPENCODE_CONFIG_CONTENT=" + string(content), "OPENCODE_DISABLE_PROJECT_CONFIG=1",
		"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1"}
	return setup{args: args, env: runEnv, cleanup: cleanup, warn: warn}, nil
}

// title names the session in opencode's own session list (and spares a
// model call: without one opencode asks the model for a title).
func title(req agent.Request) string {
	if req.Role == "" {
		return "Boof Runner"
	}
	return "Boof Runner: " + string(req.Role)
}

// run is a live opencode step.
type run struct {
	*agent.LineRun
	parser *Parser // used by the output goroutine, then by Finish
	quiet  time.Duration

	mu    sync.Mutex
	timer *time.Timer // armed after a refused model call, nil otherwise

	limitStop atomic.Bool // the adapter ended opencode's wait on a refusal
	userStop  atomic.Bool // Stop was called from outside
}

var _ agent.Run = (*run)(nil)

// line parses one output line. A refused model call (429, quota) arms the
// quiet timer: if opencode prints no event before it fires, it is waiting
// out the server's retry-after, and the step ends as a usage limit. Any
// JSON event disarms it.
func (r *run) line(b []byte) {
	p := r.parser
	errs, events := p.refusals, p.events
	p.Line(b)
	switch {
	case p.refusals > errs && statusOf(p.out.StreamErrors[len(p.out.StreamErrors)-1]) == 429:
		r.arm()
	case p.events > events:
		r.disarm()
	}
}

// arm (re)starts the quiet timer.
func (r *run) arm() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timer != nil {
		r.timer.Stop()
	}
	r.timer = time.AfterFunc(r.quiet, func() {
		if r.limitStop.CompareAndSwap(false, true) {
			r.LineRun.Stop(proc.ReasonStopped)
		}
	})
}

// disarm stops the quiet timer.
func (r *run) disarm() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
}

// Send returns agent.ErrNoMidRunInput: `opencode run` reads no input once
// it has its prompt.
func (r *run) Send(string) error { return agent.ErrNoMidRunInput }

// Stop ends the step's process tree for reason; it is idempotent.
func (r *run) Stop(reason proc.Reason) {
	r.userStop.Store(true)
	r.disarm()
	r.LineRun.Stop(reason)
}
