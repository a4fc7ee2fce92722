package mock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

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
	if req.ReadOnly {
		args = append(args, "--read-only")
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
	if o.result.IsError && o.result.LimitResetsAt > 0 {
		res.Limit = &agent.Limit{ResetsAt: time.Unix(o.result.LimitResetsAt, 0), Message: o.result.Error}
		res.Transient = false
	}
	if o.result.IsError {
		res.Exhausted = o.result.Exhausted
	}
	if o.gotResult && !o.result.IsError {
		res.Report = o.result.Report
		res.Questions = agent.ExtractQuestions(res.Report)
	}
	return res
}
