package gemini

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// readOnlyPolicy is the policy of a read-only step: gemini's edit tools
// denied (its policy engine then does not even offer them to the model);
// the shell stays, so the role can run tests (what it changes anyway the
// pipeline reverts).
const readOnlyPolicy = `# Boof Runner: a read-only step may not edit files.
[[rule]]
toolName = ["write_file", "replace"]
decision = "deny"
priority = 900
denyMessage = "This step is read-only: it may not edit files."
`

// startOpts are what a health check changes about a step.
type startOpts struct {
	// temp runs in a temporary config directory, removed afterwards.
	temp bool
	// maxAttempts caps gemini's own retries (0 = its default).
	maxAttempts int
}

// Start runs one step: gemini -p in req.Dir with the worktree's config
// directory. It returns an error wrapping agent.ErrNotInstalled when
// gemini cannot be found, ErrNoRunner, ErrNoDir, ErrEmptyPrompt,
// ErrBadText, ErrPromptTooLong, ErrBadSession, ErrBadModel or
// ErrInsecureBaseURL for a bad request, errHomeBusy when another step
// runs in the same worktree, and the runner's error when the process
// cannot start. Nothing is left running or locked when it returns an error.
func (t *Tool) Start(ctx context.Context, req agent.Request) (agent.Run, error) {
	r, err := t.start(ctx, req, startOpts{})
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return r, nil
}

func (t *Tool) start(ctx context.Context, req agent.Request, o startOpts) (*agent.LineRun, error) {
	if t.opts.Runner == nil {
		return nil, ErrNoRunner
	}
	if req.Dir == "" {
		return nil, fmt.Errorf("start gemini: %w", ErrNoDir)
	}
	dir, err := filepath.Abs(req.Dir)
	if err != nil {
		return nil, fmt.Errorf("start gemini: %w", err)
	}
	if !utf8Clean(req.SystemPrompt) {
		return nil, fmt.Errorf("start gemini: system prompt: %w", ErrBadText)
	}
	env := t.env(req.Env)
	if err := checkBaseURL(env); err != nil {
		return nil, fmt.Errorf("start gemini: %w", err)
	}
	bin, err := t.resolveBin(env)
	if err != nil {
		return nil, err // it names gemini and the executable
	}
	params := stepParams{prompt: req.Prompt, model: req.Model, resume: req.ResumeSession, readDirs: req.ReadDirs}
	if _, err := buildArgs(params); err != nil { // check the request before taking the directory
		return nil, fmt.Errorf("start gemini: %w", err)
	}
	h, err := t.openHome(dir, env, homeConfig{system: req.SystemPrompt, maxAttempts: o.maxAttempts}, o.temp)
	if err != nil {
		return nil, fmt.Errorf("start gemini: %w", err)
	}
	if req.ReadOnly {
		params.policy = filepath.Join(h.dir, "read-only-policy.toml")
		if err := writeFile(params.policy, []byte(readOnlyPolicy)); err != nil {
			h.close()
			return nil, fmt.Errorf("start gemini: read-only policy: %w", err)
		}
	}
	emit := req.OnEvent
	if emit == nil {
		emit = func(agent.Event) {}
	}
	if params.resume != "" && !h.hasSession(params.resume) {
		// Nothing to resume (see hasSession): the step starts a new
		// session, its prompt being the whole step's anyway.
		emit(agent.Event{Kind: agent.EventRaw, Text: "gemini has no answer recorded in session " + params.resume + " (its run was refused before one): starting a new session"})
		params.resume = ""
	}
	inv, _ := buildArgs(params)
	p := NewParser(emit)
	spec := proc.Spec{Path: bin, Args: inv.args, Dir: dir, Env: append(env, h.env()...),
		TranscriptPath: req.TranscriptPath, IdleTimeout: req.IdleTimeout, MaxRuntime: req.MaxRuntime, Grace: req.Grace}
	if inv.stdinPrompt != "" {
		spec.Stdin = proc.StdinPipe
	}
	run := agent.NewLineRun(agent.LineRunConfig{
		Runner:   t.opts.Runner,
		Spec:     spec,
		OnOutput: req.OnOutput,
		OnLine:   p.Line,
		Finish: func(pr proc.Result) agent.Result {
			return finish(p.Outcome(), pr, emit, params.resume)
		},
		Cleanup: h.close,
	})
	if err := run.Start(ctx); err != nil {
		return nil, fmt.Errorf("gemini: %w", err)
	}
	if inv.stdinPrompt != "" {
		go func() {
			// A failed write means gemini is gone; Wait reports why.
			_ = run.WriteInput([]byte(inv.stdinPrompt))
			run.CloseInput()
		}()
	}
	return run, nil
}

// utf8Clean reports whether s is valid UTF-8 without NUL bytes.
func utf8Clean(s string) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}

// noiseRe matches the notices gemini prints on every run, which say
// nothing about why one failed.
var noiseRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(YOLO mode is enabled|Warning: 256-color support not detected|Ripgrep is not available)`)
})

// said returns the lines gemini printed outside its JSON, less its
// every-run notices.
func said(raw []string) []string {
	var out []string
	for _, l := range raw {
		if !noiseRe().MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// finish builds the step's result from the stream and the exit.
func finish(o Outcome, pr proc.Result, emit func(agent.Event), resumed string) agent.Result {
	toolErr := ""
	switch {
	case o.GotResult && o.Status != "success":
		toolErr = o.ErrorText
	case !o.GotResult && pr.Reason == proc.ReasonNone:
		toolErr = "gemini ended without a result"
		if o.LastError != "" {
			toolErr += ": " + o.LastError
		} else if said := said(o.Raw); len(said) > 0 {
			toolErr += ": " + strings.Join(said[max(0, len(said)-3):], " | ")
			if strings.Contains(toolErr, "Unknown argument") {
				toolErr += " (an older gemini? this app drives gemini " + MinVersion + " or later)"
			}
		}
	}
	res := agent.ProcResult(pr, toolErr)
	res.SessionID, res.Usage = o.SessionID, o.Usage
	if res.SessionID == "" {
		res.SessionID = resumed
	}
	if res.Failed() && pr.Reason == proc.ReasonNone {
		at := o.ResultAt
		if at.IsZero() || at.After(time.Now()) {
			at = time.Now()
		}
		if l, ok := detectLimit(toolErr, o.ErrorType, pr.ExitCode, at); ok {
			res.Limit, res.Transient = &l, false
		} else {
			res.Limit = nil // the shared patterns' guess; gemini's own reading above wins
			if transientRe().MatchString(toolErr) {
				res.Transient = true
			}
			switch {
			case turnsRe().MatchString(o.ErrorType + " " + toolErr):
				res.Exhausted = agent.ExhaustedTurns
			case contextRe().MatchString(toolErr):
				res.Exhausted = agent.ExhaustedContext
			}
		}
	}
	if !res.Failed() {
		res.Report = o.Report
		res.Questions = agent.ExtractQuestions(o.Report)
		for _, q := range res.Questions {
			emit(agent.Event{Kind: agent.EventQuestion, Text: q})
		}
	}
	return res
}
