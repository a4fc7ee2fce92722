package claude

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// userMessage is one stream-json input line.
type userMessage struct {
	Type    string `json:"type"`
	Message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"message"`
}

// encodeUser encodes text as a stream-json user message line.
func encodeUser(text string) ([]byte, error) {
	var m userMessage
	m.Type, m.Message.Role, m.Message.Content = "user", "user", text
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Start runs claude for req under the PTY runner. It returns an error
// wrapping agent.ErrNotInstalled when the executable cannot be found, or a
// wrapped spawn error; failures of claude itself are in the Result.
func (t *Tool) Start(ctx context.Context, req agent.Request) (agent.Run, error) {
	if t.opts.Runner == nil {
		return nil, errors.New("claude: no process runner")
	}
	if req.Dir == "" {
		return nil, errors.New("claude: request has no directory")
	}
	if strings.TrimSpace(req.Prompt) == "" {
		return nil, errors.New("claude: empty prompt")
	}
	if strings.ContainsRune(req.Prompt+req.SystemPrompt+req.Model+req.ResumeSession, 0) {
		return nil, errors.New("claude: request holds a NUL byte")
	}
	bin, err := t.lookPath()
	if err != nil {
		return nil, err
	}
	key, keyed := keyOf(bin)
	var deny []string
	if req.ReadOnly {
		deny = t.known.readOnlyDeny(key, keyed)
	}
	stdinPrompt := t.opts.MidRunInput || len(req.Prompt) > stdinPromptAbove
	emit := req.OnEvent
	if emit == nil {
		emit = func(agent.Event) {}
	}
	p := NewParser(emit)
	spec := proc.Spec{Path: t.opts.Path, Args: args(req, stdinPrompt, deny), Dir: req.Dir, Env: t.env(req.Env),
		TranscriptPath: req.TranscriptPath, IdleTimeout: req.IdleTimeout, MaxRuntime: req.MaxRuntime, Grace: req.Grace}
	cfg := agent.LineRunConfig{
		Runner:   t.opts.Runner,
		Spec:     spec,
		OnOutput: req.OnOutput,
		Finish: func(pr proc.Result) agent.Result {
			o := p.Outcome()
			if keyed && len(deny) == 0 {
				// Its init line lists every tool it has. A file that cannot
				// be saved leaves them known to this process only.
				_ = t.known.learn(key, "", o.Tools)
			}
			return finish(o, pr, emit)
		},
	}
	if stdinPrompt {
		cfg.Spec.Stdin = proc.StdinPipe
		if t.opts.MidRunInput {
			cfg.Encode = encodeUser
		}
	}
	run := agent.NewLineRun(cfg)
	gotResult := false
	run.SetOnLine(func(line []byte) {
		p.Line(line)
		if !gotResult && p.out.GotResult {
			gotResult = true
			run.CloseInput() // the turn is over: claude exits on EOF
		}
	})
	if err := run.Start(ctx); err != nil {
		return nil, fmt.Errorf("claude: %w", err)
	}
	if stdinPrompt {
		// A write error means claude is not reading (it failed at start, or
		// was stopped); its output and exit then tell what happened.
		if b, err := encodeUser(req.Prompt); err == nil {
			_ = run.WriteInput(b)
		}
	}
	return run, nil
}

// finish builds the step's result from the stream and the exit.
func finish(o Outcome, pr proc.Result, emit func(agent.Event)) agent.Result {
	toolErr := ""
	switch {
	case o.IsError:
		toolErr = o.ErrorText
	case !o.GotResult && pr.Reason == proc.ReasonNone:
		toolErr = "claude ended without a result"
		if n := len(o.Raw); n > 0 {
			toolErr += ": " + strings.Join(o.Raw[max(0, n-3):], " | ")
		}
	}
	res := agent.ProcResult(pr, toolErr)
	res.SessionID, res.Usage = o.SessionID, o.Usage
	if o.Limit != nil && res.Failed() && pr.Reason == proc.ReasonNone {
		l := *o.Limit
		if res.Limit != nil {
			l.Message = res.Limit.Message
			if l.ResetsAt.IsZero() {
				l.ResetsAt = res.Limit.ResetsAt
			}
		} else {
			l.Message = toolErr
		}
		res.Limit, res.Transient = &l, false
	}
	if res.Limit == nil && res.Failed() && pr.Reason == proc.ReasonNone && o.APIErrorStatus == 429 {
		// With an API key, Claude Code 2.1 answers a 429 it will not retry
		// (or has retried 10 times) with "API Error: Request rejected (429)
		// · … rate limit …" and api_error_status 429, naming no reset time.
		res.Limit = &agent.Limit{Kind: "rate_limit", Message: toolErr,
			ResetsAt: agent.ResetFromText(toolErr, time.Now(), time.Local)}
		res.Transient = false
	}
	if res.Failed() && res.Limit == nil {
		if o.Subtype == "error_max_turns" {
			res.Exhausted = agent.ExhaustedTurns
		} else {
			res.Exhausted = agent.DetectExhausted(toolErr)
		}
	}
	if !o.IsError && o.GotResult {
		res.Report = o.Report
		res.Questions = agent.ExtractQuestions(o.Report)
		for _, q := range res.Questions {
			emit(agent.Event{Kind: agent.EventQuestion, Text: q})
		}
	}
	return res
}
