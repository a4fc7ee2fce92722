package codex

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Start runs one step: codex exec (or codex exec resume for
// req.ResumeSession) in req.Dir with a closed stdin. It returns
// agent.ErrNotInstalled (wrapped) when codex cannot be found, ErrNoRunner, ErrNoDir, ErrEmptyPrompt,
// ErrBadText, ErrBadSession, ErrBadModel or ErrSystemPromptTooLong (wrapped)
// for a bad request, and the runner's error when the process cannot start.
// Nothing is left running or on disk when it returns an error.
func (c *Tool) Start(ctx context.Context, req agent.Request) (agent.Run, error) {
	r, err := c.start(ctx, req, false)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return r, nil
}

// start is Start; ephemeral runs keep no session files (health checks).
func (c *Tool) start(ctx context.Context, req agent.Request, ephemeral bool) (*run, error) {
	if c.opts.Runner == nil {
		return nil, ErrNoRunner
	}
	if req.Dir == "" {
		return nil, fmt.Errorf("start codex: %w", ErrNoDir)
	}
	dir, err := filepath.Abs(req.Dir)
	if err != nil {
		return nil, fmt.Errorf("start codex: %w", err)
	}
	req.Dir = dir // codex resolves -C against its own working directory
	env := c.env(req.Env)
	bin, err := c.resolveBin(env)
	if err != nil {
		return nil, fmt.Errorf("start codex: %w", err)
	}
	last, err := os.CreateTemp(c.opts.TempDir, "codex-last-*.txt")
	if err != nil {
		return nil, fmt.Errorf("start codex: last-message file: %w", err)
	}
	lastPath := last.Name()
	last.Close()
	inv, err := buildArgs(stepParams{prompt: req.Prompt, system: req.SystemPrompt, model: req.Model,
		dir: req.Dir, resume: req.ResumeSession, lastFile: lastPath, overrides: c.opts.ConfigOverrides, ephemeral: ephemeral,
		readOnly: sandboxed(req)})
	if err != nil {
		os.Remove(lastPath)
		return nil, fmt.Errorf("start codex: %w", err)
	}
	var base ThreadUsage
	if req.ResumeSession != "" {
		base = c.threadBase(env, req.ResumeSession)
	}
	emit := req.OnEvent
	if emit == nil {
		emit = func(agent.Event) {}
	}
	r := &run{c: c, req: req, lastPath: lastPath, emit: emit, done: make(chan struct{})}
	if !ephemeral {
		r.home = c.codexHome(env)
	}
	r.parser = NewParser(emit, base)
	r.lines = proc.NewLineSplitter(r.parser.Line)
	stdin := proc.StdinNull
	if inv.stdinPrompt != "" {
		stdin = proc.StdinPipe
	}
	h, err := c.opts.Runner.Start(ctx, proc.Spec{
		Path: bin, Args: inv.args, Dir: req.Dir, Env: env, Stdin: stdin,
		TranscriptPath: req.TranscriptPath, IdleTimeout: req.IdleTimeout,
		MaxRuntime: req.MaxRuntime, Grace: req.Grace, OnChunk: r.chunk,
	})
	if err != nil {
		os.Remove(lastPath)
		return nil, fmt.Errorf("start codex: %w", err)
	}
	r.h = h
	if inv.stdinPrompt != "" {
		go func() {
			// A failed write means the child is gone; Wait reports why.
			_, _ = h.Write([]byte(inv.stdinPrompt))
			_ = h.CloseInput()
		}()
	}
	go r.finish()
	return r, nil
}

// run is a live codex step.
type run struct {
	c        *Tool
	req      agent.Request
	h        *proc.Handle
	lastPath string
	// home is the CODEX_HOME the step's session file is in, "" for an
	// ephemeral run (which keeps none).
	home   string
	emit   func(agent.Event)
	parser *Parser // used by the runner's output goroutine, then by finish
	lines  *proc.LineSplitter

	done chan struct{}
	res  agent.Result // set before done is closed
}

var _ agent.Run = (*run)(nil)

// chunk receives raw PTY output from the runner's output goroutine.
func (r *run) chunk(b []byte) {
	if r.req.OnOutput != nil {
		r.req.OnOutput(b)
	}
	_, _ = r.lines.Write(b)
}

// finish waits for the process tree, then builds the result. The runner's
// Wait returns after the last chunk call, so the parser is ours from here.
func (r *run) finish() {
	defer close(r.done)
	pr := r.h.Wait()
	r.lines.Flush()
	report := r.readLast()
	p := r.parser
	res := agent.Result{
		Report:     report,
		Questions:  agent.ExtractQuestions(report),
		SessionID:  p.SessionID(),
		ExitCode:   pr.ExitCode,
		Signal:     pr.Signal,
		StopReason: pr.Reason,
	}
	if res.SessionID == "" {
		res.SessionID = r.req.ResumeSession
	}
	var haveUsage bool
	res.Usage, haveUsage = p.Usage()
	res.ErrorText = errorText(p, pr)
	var file rollout
	if res.Failed() {
		file = r.failedTurn(&res, haveUsage)
	}
	if u, ok := p.Thread(); ok {
		r.c.rememberThread(res.SessionID, u)
	}
	if res.Failed() {
		stopped, timedOut, stalled := agent.StopFlags(pr.Reason)
		res.Transient = agent.IsTransientToolError(res.ErrorText, stopped, timedOut, stalled)
		if pr.Reason == proc.ReasonNone {
			if l, ok := agent.DetectLimitText(res.ErrorText, time.Now(), time.Local); ok {
				if !file.resetsAt.IsZero() {
					l.ResetsAt = file.resetsAt
				}
				res.Limit, res.Transient = &l, false
			} else {
				res.Exhausted = agent.DetectExhausted(res.ErrorText)
			}
		}
	}
	for _, q := range res.Questions {
		r.emit(agent.Event{Kind: agent.EventQuestion, Text: q})
	}
	r.res = res
}

// failedTurn reads the session file of a failed step: codex prints no usage
// for a failed turn (the work before the failure is in the file's last
// token count, which goes to res and to the budgets as a usage event), and
// a usage limit's reset only to the minute (the file has it exactly).
func (r *run) failedTurn(res *agent.Result, haveUsage bool) rollout {
	file, _ := readRollout(r.home, res.SessionID)
	if !haveUsage && file.haveUsage {
		p := r.parser
		p.total, p.haveUsage = file.usage, true
		res.Usage = file.usage.sub(p.base).toUsage()
		if u := res.Usage; u != (agent.Usage{}) {
			r.emit(agent.Event{Kind: agent.EventUsage, Usage: &u})
		}
	}
	return file
}

// readLast returns the -o file's text, or the last agent message when
// codex left the file missing or blank (it writes an empty file on
// failure), and removes the file.
func (r *run) readLast() string {
	b, err := userfile.ReadKept(r.lastPath)
	os.Remove(r.lastPath)
	if err == nil && strings.TrimSpace(string(b)) != "" {
		return string(b)
	}
	return r.parser.LastMessage()
}

// errorText says why a step failed, "" when it succeeded: codex's own error
// (turn.failed, else its last error notice), else why we stopped it, else
// how it exited.
func errorText(p *Parser, pr proc.Result) string {
	if p.turnFailed != "" {
		return p.turnFailed
	}
	if pr.Reason != proc.ReasonNone {
		if p.lastError != "" {
			return p.lastError
		}
		return pr.Err().Error()
	}
	if pr.ExitCode != 0 || pr.Signal != "" {
		if p.lastError != "" {
			return p.lastError
		}
		return withRaw("codex "+pr.Err().Error(), p.RawTail())
	}
	if !p.TurnCompleted() {
		if p.lastError != "" {
			return p.lastError
		}
		return withRaw("codex ended without completing its turn", p.RawTail())
	}
	return ""
}

// withRaw appends the last lines codex printed outside its JSON events
// (its stderr: usage errors, a missing node) to msg.
func withRaw(msg string, raw []string) string {
	if len(raw) == 0 {
		return msg
	}
	return msg + ": " + strings.Join(raw, " | ")
}

// Pid is the pid of the codex process.
func (r *run) Pid() int { return r.h.Pid() }

// Pgid is the process group of the codex process.
func (r *run) Pgid() int { return r.h.Pgid() }

// Pids lists the live processes of the step's tree, nil once it is gone.
func (r *run) Pids() []int { return r.h.Pids() }

// Send returns agent.ErrNoMidRunInput: codex exec reads no input while it runs.
func (r *run) Send(string) error { return agent.ErrNoMidRunInput }

// Stop ends the step's process tree; it is idempotent.
func (r *run) Stop(reason proc.Reason) { r.h.Stop(reason) }

// Wait waits for the step and returns its result. The error is always nil:
// failures to start are reported by Start, tool failures in the Result.
func (r *run) Wait() (agent.Result, error) {
	<-r.done
	return r.res, nil
}

// sandboxed reports whether a step runs in codex's read-only sandbox: a
// read-only planning role (planner, its answers, refinement). Observer and
// reviewer run tests, which the sandbox would break (it makes /tmp and the
// build caches read-only too); the pipeline reverts what they change.
func sandboxed(req agent.Request) bool {
	switch req.Role {
	case task.RolePlanner, task.RolePlannerAnswer, task.RoleRefinement:
		return req.ReadOnly
	}
	return false
}
