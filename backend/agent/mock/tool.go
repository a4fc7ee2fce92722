// Package mock is the deterministic offline agent tool. Its agent program
// (Main) runs as a real subprocess under the PTY runner, follows markers in
// the prompt, makes real git edits as the developer, and takes mid-run input.
//
// Markers, one per line; for each kind the last complete marker wins and an
// unknown kind, role or token fails the run (exit 2, ErrBadMarker text):
//
//	[[mock-verdicts observer=CHANGES_REQUESTED,APPROVE reviewer=APPROVE]]  one token per round, the last repeats
//	[[mock-transient developer=1]]  the first N runs fail with "API Error: 503 ..." (transient)
//	[[mock-stall developer=1]]      the first N runs go silent (for the idle watchdog)
//	[[mock-questions planner=1]]    the first N runs end with "## Questions for the user"
//	[[mock-await developer=1]]      wait for N mid-run messages before finishing
//	[[mock-delay developer=200]]    pause N ms between streamed lines
//
// Verdict tokens: APPROVE, CHANGES_REQUESTED, REJECT, NONE (no verdict
// line), GARBLED ("VERDICT: MAYBE"), CONFLICT (two disagreeing final lines);
// without a marker observer and reviewer approve. "First N runs" and rounds
// are counted per worktree directory in Options.StateDir, each kind on its
// own counter: a run failed by mock-transient does not use up a stall,
// question or verdict round.
//
// The developer appends to mock-<worktree name>.md, commits that file as
// "Boof Mock", then leaves a tracked change in it and an untracked
// mock-<worktree name>.scratch.txt.
package mock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// Name is the tool's settings name.
const Name = "mock"

// Options configure the mock tool.
type Options struct {
	// Command is the agent program and its leading arguments, e.g.
	// {"/path/to/boof-runner", "__mock-agent"}. Required.
	Command []string
	// Env is extra environment for every run (KEY=VALUE).
	Env []string
	// Runner starts the processes. Required.
	Runner *proc.Runner
	// StateDir holds the per-worktree run counters; default
	// $TMPDIR/boof-mock-state.
	StateDir string
}

// Tool is the mock agent tool.
type Tool struct {
	opts Options
}

var _ agent.Tool = (*Tool)(nil)

// New returns the mock tool.
func New(opts Options) *Tool {
	if opts.StateDir == "" {
		opts.StateDir = filepath.Join(os.TempDir(), "boof-mock-state")
	}
	return &Tool{opts: opts}
}

// Name returns "mock".
func (t *Tool) Name() string { return Name }

// Capabilities: typed events, mid-run input, resume and usage.
func (t *Tool) Capabilities() agent.Capabilities {
	return agent.Capabilities{Streaming: agent.StreamingEvents, MidRunInput: true, NativeResume: true, Usage: true}
}

// Models lists the mock's one model.
func (t *Tool) Models(context.Context) []agent.Model {
	return []agent.Model{{ID: "mock", Label: "Mock (offline)", Source: agent.ModelSourceBuiltin}}
}

// Health runs `<command> --version`; the mock needs no key or network.
func (t *Tool) Health(ctx context.Context, _ string) agent.Health {
	h := agent.Health{Tool: Name}
	if len(t.opts.Command) == 0 {
		h.Error = "mock: no command configured"
		return h
	}
	path, err := exec.LookPath(t.opts.Command[0])
	if err != nil {
		h.Error = "mock: " + err.Error()
		return h
	}
	h.Path, h.Installed = path, true
	cmd := exec.CommandContext(ctx, path, append(t.opts.Command[1:], "--version")...)
	cmd.Env = append(os.Environ(), t.opts.Env...)
	cmd.WaitDelay = agent.HealthWaitDelay
	out, err := cmd.Output()
	if err != nil {
		h.Error = "mock: " + err.Error()
		return h
	}
	h.Version = strings.TrimSpace(string(out))
	h.Authenticated, h.Reachable = true, true
	return h
}

// Start runs the mock agent for req. It returns agent.ErrNotInstalled when no
// command is configured, or a wrapped error when the prompt file or the
// process cannot be created.
func (t *Tool) Start(ctx context.Context, req agent.Request) (agent.Run, error) {
	if len(t.opts.Command) == 0 || t.opts.Runner == nil {
		return nil, fmt.Errorf("mock: %w", agent.ErrNotInstalled)
	}
	if req.Dir == "" {
		return nil, errors.New("mock: request has no directory")
	}
	state, err := stateDir(t.opts.StateDir, req.Dir)
	if err != nil {
		return nil, fmt.Errorf("mock: %w", err)
	}
	if err := os.MkdirAll(state, 0o700); err != nil {
		return nil, fmt.Errorf("mock: %w", err)
	}
	pf, err := os.CreateTemp(state, "prompt-*.txt")
	if err != nil {
		return nil, fmt.Errorf("mock: prompt file: %w", err)
	}
	_, werr := pf.WriteString(req.Prompt)
	if cerr := pf.Close(); werr == nil {
		werr = cerr
	}
	cleanup := func() { _ = os.Remove(pf.Name()) }
	if werr != nil {
		cleanup()
		return nil, fmt.Errorf("mock: prompt file: %w", werr)
	}
	args := append(append([]string(nil), t.opts.Command[1:]...),
		"--role", string(req.Role), "--dir", req.Dir, "--state", state, "--prompt-file", pf.Name(), "--input")
	if req.Model != "" {
		args = append(args, "--model", req.Model)
	}
	if req.ResumeSession != "" {
		args = append(args, "--resume", req.ResumeSession)
	}
	emit := req.OnEvent
	if emit == nil {
		emit = func(agent.Event) {}
	}
	p := &parser{emit: emit}
	run := agent.NewLineRun(agent.LineRunConfig{
		Runner: t.opts.Runner,
		Spec: proc.Spec{Path: t.opts.Command[0], Args: args, Dir: req.Dir,
			Env: append(append([]string(nil), t.opts.Env...), req.Env...), Stdin: proc.StdinPipe,
			TranscriptPath: req.TranscriptPath, IdleTimeout: req.IdleTimeout, MaxRuntime: req.MaxRuntime, Grace: req.Grace},
		OnOutput: req.OnOutput,
		OnLine:   p.line,
		Encode:   encodeInput,
		Finish:   func(pr proc.Result) agent.Result { return finish(p.out, pr) },
		Cleanup:  cleanup,
	})
	p.onResult = run.CloseInput
	if err := run.Start(ctx); err != nil {
		return nil, fmt.Errorf("mock: %w", err)
	}
	return run, nil
}

// finish builds the step's result from the mock's output and exit.
func finish(o outcome, pr proc.Result) agent.Result {
	toolErr := ""
	if o.result.IsError {
		toolErr = o.result.Error
	} else if !o.gotResult && pr.Reason == proc.ReasonNone {
		toolErr = "mock: no result line"
		if n := len(o.raw); n > 0 {
			toolErr += ": " + o.raw[n-1]
		}
	}
	res := agent.ProcResult(pr, toolErr)
	res.SessionID = o.result.Session
	if res.SessionID == "" {
		res.SessionID = o.session
	}
	res.Usage = o.result.Usage
	if o.gotResult && !o.result.IsError {
		res.Report = o.result.Report
		res.Questions = agent.ExtractQuestions(res.Report)
	}
	return res
}
