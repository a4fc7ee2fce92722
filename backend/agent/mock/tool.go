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
//	[[mock-write reviewer=1]]       write mock-<role>-note.txt with the edit tool (refused when read-only)
//	[[mock-stray reviewer=1]]       change the worktree through the "shell" whatever the access:
//	                                append to a tracked file, commit stray-<role>.txt, leave stray-<role>-untracked.txt
//	[[mock-lock reviewer=1]]        with stray: make the untracked file immutable, so it cannot be reverted
//	[[mock-leak developer=1]]       print mock-leak.txt of the worktree as a tool result, text, report and question
//	[[mock-limit developer=1]]      end on a usage limit that resets in an hour
//	[[mock-turns developer=1]]      make a few tool calls, then end as out of turns (the tool's own signal)
//	[[mock-context developer=1]]    report a model call of 190k input tokens, then work on for 20 s and finish
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
// mock-<worktree name>.scratch.txt. Outside a git repository it only writes
// the file (no commit), and observer and reviewer read it.
//
// Every prompt the agent program gets is appended to received.jsonl in its
// state directory; ReadReceived reads them back, so tests assert on what
// the agent received.
package mock

import (
	"context"
	"os"
	"path/filepath"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// Name is the tool's settings name.
const Name = "mock"

// Options configure the mock tool.
type Options struct {
	// Command is the agent program and its leading arguments, e.g.
	// {"/path/to/boof-runner", AgentCommand}. Required.
	Command []string
	// Env is extra environment for every run (KEY=VALUE).
	Env []string
	// Runner starts the processes. Required.
	Runner *proc.Runner
	// Name is the tool's name (default "mock"); tests register a second
	// mock under another name to switch tools on a usage limit.
	Name string
	// StateDir holds the per-worktree run counters; default
	// $TMPDIR/boof-mock-state.
	StateDir string
}

// PricedModel is the mock model with a list price.
const PricedModel = "mock-priced"

// Adapter registers the mock with the app. It is part of the app (its agent
// program is the app binary's AgentCommand), so it is always installed, and
// its model costs nothing, except "mock-priced" (for budget tests: $1 per
// million input tokens, $2 per million output tokens).
var Adapter = agent.Adapter{
	Name:          Name,
	ContextWindow: 200000,
	Capabilities:  capabilities,
	Prices:        agent.Prices{"mock": {}, PricedModel: {In: 1, Out: 2, CacheRead: 0.1, CacheWrite: 1.25}},
	New: func(c agent.Config) agent.Tool {
		return New(Options{Command: []string{c.Exe, AgentCommand}, Runner: c.Runner, StateDir: c.StateDir})
	},
}

// capabilities: typed events, mid-run input, resume and usage.
var capabilities = agent.Capabilities{Streaming: agent.StreamingEvents, MidRunInput: true, NativeResume: true, Usage: true}

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
	if opts.Name == "" {
		opts.Name = Name
	}
	return &Tool{opts: opts}
}

// Name returns the tool's name: "mock" unless Options.Name says otherwise.
func (t *Tool) Name() string { return t.opts.Name }

// Capabilities: typed events, mid-run input, resume and usage.
func (t *Tool) Capabilities() agent.Capabilities { return capabilities }

// Models lists the mock's one model.
func (t *Tool) Models(context.Context) []agent.Model {
	return []agent.Model{{ID: "mock", Label: "Mock (offline)", Source: agent.ModelSourceBuiltin}}
}
