// Package agent is the seam between the pipeline and the coding-agent CLIs.
// The pipeline knows only the types in this package; flags, prompt markers and
// output parsing of each CLI live in its adapter package (claude, codex, mock).
package agent

import (
	"context"
	"errors"
	"time"

	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Streaming granularities a tool can declare in Capabilities.Streaming.
const (
	// StreamingEvents means the tool emits typed events (tool calls, text).
	StreamingEvents = "events"
	// StreamingLines means the tool emits raw lines only.
	StreamingLines = "lines"
)

// Capabilities declares what a tool can do beyond running a prompt.
type Capabilities struct {
	// Streaming is StreamingEvents or StreamingLines.
	Streaming string `json:"streaming"`
	// MidRunInput is true when Run.Send reaches the running agent.
	MidRunInput bool `json:"midRunInput"`
	// NativeResume is true when Request.ResumeSession continues a session.
	NativeResume bool `json:"nativeResume"`
	// Usage is true when the tool reports token usage.
	Usage bool `json:"usage"`
}

// Usage counts tokens and cost of one step.
type Usage struct {
	InputTokens      int64   `json:"input_tokens"`
	OutputTokens     int64   `json:"output_tokens"`
	CacheReadTokens  int64   `json:"cache_read_tokens"`
	CacheWriteTokens int64   `json:"cache_write_tokens"`
	CostUSD          float64 `json:"cost_usd"`
	// CostKnown is true when CostUSD was reported by the tool.
	CostKnown bool `json:"cost_known"`
}

// Add returns the sum of u and o; the cost is known when either is.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + o.InputTokens,
		OutputTokens:     u.OutputTokens + o.OutputTokens,
		CacheReadTokens:  u.CacheReadTokens + o.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + o.CacheWriteTokens,
		CostUSD:          u.CostUSD + o.CostUSD,
		CostKnown:        u.CostKnown || o.CostKnown,
	}
}

// EventKind names the kind of an Event.
type EventKind string

// The event kinds a tool streams.
const (
	// EventText is assistant text.
	EventText EventKind = "text"
	// EventToolCall is the agent calling one of its tools (Tool, CallID, Text = input).
	EventToolCall EventKind = "tool_call"
	// EventToolResult is the result of a tool call (CallID, Text, IsError).
	EventToolResult EventKind = "tool_result"
	// EventUsage carries usage so far (Usage).
	EventUsage EventKind = "usage"
	// EventRetry is the tool retrying an API error itself (Attempt, MaxAttempts, RetryDelayMs, ErrorStatus).
	EventRetry EventKind = "retry"
	// EventQuestion is a question for the user (Text).
	EventQuestion EventKind = "question"
	// EventRaw is an output line the adapter did not understand (Text).
	EventRaw EventKind = "raw"
	// EventSession announces the native session id (Text).
	EventSession EventKind = "session"
)

// Event is one typed item of a tool's output stream.
type Event struct {
	Kind         EventKind `json:"kind"`
	Text         string    `json:"text,omitempty"`
	Tool         string    `json:"tool,omitempty"`
	CallID       string    `json:"call_id,omitempty"`
	IsError      bool      `json:"is_error,omitempty"`
	Usage        *Usage    `json:"usage,omitempty"`
	Attempt      int       `json:"attempt,omitempty"`
	MaxAttempts  int       `json:"max_attempts,omitempty"`
	RetryDelayMs int64     `json:"retry_delay_ms,omitempty"`
	ErrorStatus  int       `json:"error_status,omitempty"`
}

// Request is one role prompt to run in a directory.
type Request struct {
	// Role is the role the tool is asked to play.
	Role task.Role
	// Prompt is the assembled role prompt, sent as the user prompt.
	Prompt string
	// SystemPrompt is the role system prompt, appended to the tool's own.
	SystemPrompt string
	// Model is the model id or alias; "" means the tool's default.
	Model string
	// Dir is the working directory (the task's worktree).
	Dir string
	// ReadDirs are directories outside Dir the agent must be able to read
	// (the task's attachments); adapters whose CLI confines file access
	// grant them.
	ReadDirs []string
	// ReadOnly asks the tool not to change Dir, with whatever restriction
	// the CLI offers that still lets the role run tests (caches and /tmp
	// stay writable). The pipeline enforces it anyway: what a read-only
	// step changes is saved aside and reverted.
	ReadOnly bool
	// ResumeSession is a native session id to continue; "" starts a new one.
	ResumeSession string
	// Env is extra environment (KEY=VALUE) for this tool's processes.
	Env []string
	// TranscriptPath is the file the raw PTY transcript is written to ("" = none).
	TranscriptPath string
	// IdleTimeout stops the step when it prints nothing for this long (0 = none).
	IdleTimeout time.Duration
	// MaxRuntime stops the step after this long (0 = none).
	MaxRuntime time.Duration
	// Grace is the time between SIGTERM and SIGKILL when stopping.
	Grace time.Duration
	// OnEvent receives typed events, in order, from one goroutine; may be nil.
	OnEvent func(Event)
	// OnOutput receives raw PTY chunks (for the terminal view); may be nil.
	OnOutput func([]byte)
}

// Result is the outcome of one finished step.
type Result struct {
	// Report is the final report text.
	Report string
	// Questions are the questions the report asks, nil when none.
	Questions []string
	// Usage is the step's total usage.
	Usage Usage
	// SessionID is the native session id, "" when unknown.
	SessionID string
	// ExitCode is the process exit code (-1 when killed by a signal).
	ExitCode int
	// Signal names the signal that ended the process, "" if none.
	Signal string
	// StopReason says why we stopped the process; proc.ReasonNone if it ended by itself.
	StopReason proc.Reason
	// Transient is true when the failure is worth retrying in the same worktree.
	Transient bool
	// ErrorText is the tool's error text, "" on success.
	ErrorText string
	// Limit is set when the step ended on the tool's usage limit (the step
	// failed, and is not transient: it waits for the reset).
	Limit *Limit
	// Exhausted is set when the tool ended the step because its session ran
	// out of room: ExhaustedTurns or ExhaustedContext ("" otherwise).
	Exhausted string
}

// Exhaustion signals of Result.Exhausted.
const (
	// ExhaustedTurns: the tool reached its maximum number of turns.
	ExhaustedTurns = "turns"
	// ExhaustedContext: the session's context window is full.
	ExhaustedContext = "context"
)

// Failed reports whether the step did not succeed: it was stopped, exited
// non-zero, was killed by a signal, or the tool reported an error.
func (r Result) Failed() bool {
	return r.StopReason != proc.ReasonNone || r.ExitCode != 0 || r.Signal != "" || r.ErrorText != ""
}

// ErrNoMidRunInput is returned by Run.Send when the tool cannot take input mid-run.
var ErrNoMidRunInput = errors.New("tool does not accept mid-run input")

// ErrRunDone is returned by Run.Send when the step has already finished its turn.
var ErrRunDone = errors.New("run already finished")

// ErrUnknownTool is returned by Registry.Get for a name that is not registered.
var ErrUnknownTool = errors.New("unknown tool")

// ErrNotInstalled is returned by Tool.Start when the CLI cannot be found.
var ErrNotInstalled = errors.New("tool not installed")

// Run is a live step.
type Run interface {
	// Pid is the pid of the tool's main process.
	Pid() int
	// Pgid is the process group of the tool's main process.
	Pgid() int
	// Pids lists the live processes of the step's tree.
	Pids() []int
	// Send delivers text to the running agent. It returns ErrNoMidRunInput when
	// the tool cannot take it and ErrRunDone when the step has finished.
	Send(text string) error
	// Stop ends the step's process tree for reason; it is idempotent.
	Stop(reason proc.Reason)
	// Wait waits for the step to end. The error is only for failures to run at
	// all; tool failures are reported in the Result.
	Wait() (Result, error)
}

// Health is the outcome of a tool's health check.
type Health struct {
	Tool          string `json:"tool"`
	Installed     bool   `json:"installed"`
	Version       string `json:"version"`
	Authenticated bool   `json:"authenticated"`
	Reachable     bool   `json:"reachable"`
	Error         string `json:"error,omitempty"`
	Path          string `json:"path"`
}

// Model sources.
const (
	// ModelSourceBuiltin marks a model alias known to the adapter.
	ModelSourceBuiltin = "builtin"
	// ModelSourceSettings marks a model configured in settings.
	ModelSourceSettings = "settings"
	// ModelSourceTool marks a model reported by the tool itself.
	ModelSourceTool = "tool"
)

// Model is a model a tool can run.
type Model struct {
	ID     string `json:"id"`
	Label  string `json:"label"`
	Source string `json:"source"`
}

// Tool is a coding-agent CLI the pipeline can run role prompts with.
type Tool interface {
	// Name is the tool's settings name: "claude-code", "codex" or "mock".
	Name() string
	// Capabilities declares what the tool can do.
	Capabilities() Capabilities
	// Health checks the tool within ctx, using smokeModel for the smoke prompt.
	Health(ctx context.Context, smokeModel string) Health
	// Models lists the models the tool offers.
	Models(ctx context.Context) []Model
	// Start starts a step. It returns ErrNotInstalled when the CLI is missing,
	// or a wrapped error when the process cannot be spawned.
	Start(ctx context.Context, req Request) (Run, error)
}
