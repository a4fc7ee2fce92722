// Package pipeline runs one claimed task through its roles — planner,
// refinement, developer, optional observer, reviewer — in the task's
// worktree, enforces the review gate and its fix loop, routes questions,
// retries transient failures, honours stop and inject controls, and records
// everything durably before the final status.
package pipeline

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/verify"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Store is the part of the store the pipeline reads and writes.
type Store interface {
	GetTask(ctx context.Context, id string) (task.Task, error)
	StartExecution(ctx context.Context, e task.Execution) (task.Execution, error)
	SetExecutionProcess(ctx context.Context, execID int64, pid, pgid int, pids []int, starts map[int]uint64) error
	FinishExecution(ctx context.Context, execID int64, outcome task.ExecOutcome, exitCode int, usage task.Usage, costEstimated bool) error
	AddSection(ctx context.Context, sec task.Section) (task.Section, error)
	Sections(ctx context.Context, taskID string) ([]task.Section, error)
	Attachments(ctx context.Context, taskID string) ([]store.Attachment, error)
	AppendLog(ctx context.Context, taskID string, execID int64, level task.LogLevel, text string) error
	AppendEvent(ctx context.Context, taskID string, d task.EventData) error
	StopRequested(ctx context.Context, taskID string) (bool, error)
	ApplyInjections(ctx context.Context, taskID, step string) ([]task.Injection, error)
	SetQuestions(ctx context.Context, id string, questions []string) error
	Decide(ctx context.Context, d store.Decided) (int, error)
	CompleteDecided(ctx context.Context, taskID string, extra store.TransitionNote, left string) (task.Task, error)
	DropCleanupLeft(ctx context.Context, taskID string) error
	Transition(ctx context.Context, taskID string, to task.Status, note store.TransitionNote) (task.Task, error)
	VerifyStore
	// Usage limits: tool pauses, the release of a limited task and where it goes on.
	ToolPauses(ctx context.Context, now time.Time) ([]task.ToolPause, error)
	PauseTool(ctx context.Context, p task.ToolPause) (task.ToolPause, error)
	Release(ctx context.Context, taskID string, rp *task.ResumePoint, reason string, d task.EventData) (task.Task, error)
	ResumePoint(ctx context.Context, taskID string) (task.ResumePoint, bool, error)
	DropResume(ctx context.Context, taskID string) error
	LastSectionID(ctx context.Context, taskID string) (int64, error)
	SetExecutionSession(ctx context.Context, execID int64, sessionID string) error
	// Executions lists a task's executions, oldest first (the native session a resume continues).
	Executions(ctx context.Context, taskID string) ([]task.Execution, error)
	ChangeRequestByID(ctx context.Context, id int64) (store.ChangeRequest, error)
	RetargetExecution(ctx context.Context, e task.Execution) error
}

// Tools finds an agent tool by its settings name and prices the steps the
// tool does not price itself (agent.Registry).
type Tools interface {
	Get(name string) (agent.Tool, error)
	EstimateCost(tool, model string, u task.Usage) (float64, bool)
}

// Worktrees provisions, finishes and diffs task worktrees (worktree.Manager).
type Worktrees interface {
	Provision(ctx context.Context, r worktree.Request, log worktree.Logf) (worktree.Worktree, error)
	Finish(ctx context.Context, wt worktree.Worktree, o worktree.Outcome, p worktree.Policy, log worktree.Logf) (worktree.FinishReport, error)
	PromptDiff(ctx context.Context, wt worktree.Worktree, maxInline int, log worktree.Logf) (string, error)
	DropHunk(ctx context.Context, wt worktree.Worktree, d task.HunkDrop, message string) (commit string, already bool, err error)
	// Snapshot and Restore guard read-only steps (readonly.go).
	Snapshot(ctx context.Context, wt worktree.Worktree) (worktree.Snapshot, error)
	Restore(ctx context.Context, wt worktree.Worktree, snap worktree.Snapshot, name string) (worktree.Stray, error)
	// Files and UntrackedBeside (the untracked files, listed while its f
	// runs) list what a handoff names as changed.
	Files(ctx context.Context, repo, base, head string) ([]worktree.FileChange, error)
	UntrackedBeside(ctx context.Context, dir string, f func()) ([]string, error)
}

// Hooks receive live output for the UI or a console; every field may be
// nil. They are called synchronously, from more than one goroutine of a run
// (a step's stream and its control loop), and must not block.
type Hooks struct {
	// OnEvent receives every typed event of a run as it happens, after a
	// stored kind reached the store: steps, verdicts, retries, questions,
	// injections, the agent's stream (text, tool calls and results, its own
	// API retries, questions, usage) and the run's plain log lines as
	// task.Note. Its free text is scrubbed. execID is the step's execution,
	// 0 for run-level events. The live feed renders from these values; the
	// history reads the same values back from the store.
	OnEvent func(taskID string, execID int64, e task.Event)
	// OnLog receives every line written to the task's log (human text,
	// scrubbed), for a console.
	OnLog func(taskID string, execID int64, level task.LogLevel, text string)
	// OnOutput receives raw PTY chunks of a running step.
	OnOutput func(taskID string, execID int64, chunk []byte)
}

// Options configure a Pipeline.
type Options struct {
	Store     Store
	Tools     Tools
	Worktrees Worktrees
	// Settings returns the settings to run a task with (read once per task).
	Settings func() settings.Settings
	// TranscriptDir holds the raw PTY transcripts, <dir>/<task>/<step>.log.
	TranscriptDir string
	// Sleep waits d or until ctx ends; default a timer. Tests inject a fast one.
	Sleep func(ctx context.Context, d time.Duration) error
	// ControlPoll is how often stop and inject controls are checked while a
	// step runs or backs off; default 250 ms.
	ControlPoll time.Duration
	// Budgets, when set, records every usage event of a live step against
	// the budgets (warning at 80 and 100 %) and stops the steps a reached
	// cap covers; nil records usage at each step's end only.
	Budgets Budgets
	// Wake, when set, returns a channel closed when a control may have
	// arrived (wake.Signal.Next): the running steps look at the store at
	// once instead of at the next ControlPoll.
	Wake func() <-chan struct{}
	// Hooks receive live output.
	Hooks Hooks
	// Logger receives internal problems (a log line that could not be stored).
	Logger *slog.Logger
	// Describe turns an error that fails a task (a worktree that cannot be
	// provisioned) into the sentence recorded as the task's error; default
	// the error's text. backend/host passes the error vocabulary
	// (usererr.Describe), which this package cannot import.
	Describe func(error) string
	// Now stamps live events; default time.Now.
	Now func() time.Time
	// Scope is the data root's step-tag scope (proc.Scope): every agent step
	// and every git command of a run carries proc.StepEnv with it, so crash
	// recovery finds them. Empty means untagged (tests).
	Scope string
	// Switch returns the tools a step may go on with when tool reaches its
	// usage limit and the task switches tools (settings limits.onLimit or
	// the task's on-limit "switch"), in preference order (settings
	// limits.switchOrder), each with whether it is installed; none when
	// tool has no other. The step takes the first installed one that is
	// not paused. nil: no tool switches.
	Switch func(tool string) []SwitchCandidate
	// ContextWindow returns a tool's context window in tokens (0 =
	// unknown), for rotating a session whose context estimate passes
	// settings.sessions.rotateContextPercent; nil: no such rotation.
	ContextWindow func(tool string) int64
	// Verify runs the verification gate's command (verify.Runner); it is
	// required once a verify command is set.
	Verify *verify.Runner
}

// Pipeline runs claimed tasks. It is safe for concurrent use: each Run is
// independent.
type Pipeline struct {
	o Options
}

// New returns a Pipeline; Store, Tools, Worktrees and Settings are required.
func New(o Options) *Pipeline {
	if o.Sleep == nil {
		o.Sleep = sleepCtx
	}
	if o.ControlPoll <= 0 {
		o.ControlPoll = 250 * time.Millisecond
	}
	if o.Wake == nil {
		o.Wake = func() <-chan struct{} { return nil }
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Describe == nil {
		o.Describe = func(err error) string { return err.Error() }
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Pipeline{o: o}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Result is how a Run ended: the status the task was moved to and, for
// failed or stopped tasks, the message recorded on it.
type Result struct {
	Status  task.Status
	Message string
	// Iteration is the run (1-based) that was executed.
	Iteration int
	// Worktree and Branch are where the run worked: the task's worktree
	// directory (which its clean-up may have removed since) and branch;
	// Branch is "" for a folder that is not a git repository, both are ""
	// when the run ended before it had a worktree.
	Worktree, Branch string
}

// InterruptedMessage is recorded on a task whose step was cut short by the
// app exiting (graceful shutdown here, crash recovery in the runner).
const InterruptedMessage = "interrupted: the app exited while this step ran"

// errStopped ends a run the user stopped; errInterrupted one the app ended.
var (
	errStopped     = errors.New("stopped by user")
	errInterrupted = errors.New(InterruptedMessage)
)

// failure ends a run as failed with a message for the user.
type failure struct{ msg string }

func (f *failure) Error() string { return f.msg }

// parked ends a run that waits for the user's answers.
type parked struct{ questions []string }

func (p *parked) Error() string { return "waiting for answers" }
