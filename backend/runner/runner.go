// Package runner is the queue loop of one data root: it holds the runner
// lock, reconciles what a dead process left, claims pending tasks and runs
// them through the pipeline with N slots, wakes on in-process events and
// polls the store for changes made by other processes.
package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Store is the part of the store the runner uses.
type Store interface {
	NextPending(ctx context.Context) (task.Task, error)
	Claim(ctx context.Context, taskID string, c store.ClaimInfo) (task.Execution, error)
	GetTask(ctx context.Context, id string) (task.Task, error)
	ListTasks(ctx context.Context, f store.Filter) ([]task.Task, error)
	OpenExecutions(ctx context.Context) ([]task.Execution, error)
	FinishExecution(ctx context.Context, execID int64, outcome task.ExecOutcome, exitCode int, usage task.Usage, costEstimated bool) error
	Transition(ctx context.Context, taskID string, to task.Status, note store.TransitionNote) (task.Task, error)
	AppendLog(ctx context.Context, taskID string, execID int64, level task.LogLevel, text string) error
	AppendEvent(ctx context.Context, taskID string, d task.EventData) error
	DecidedOutcome(ctx context.Context, taskID string) (store.Decided, bool, error)
}

// Pipeline runs one claimed task (pipeline.Pipeline).
type Pipeline interface {
	Run(ctx context.Context, t task.Task, first task.Execution) (pipeline.Result, error)
	CompleteDecided(ctx context.Context, t task.Task, d store.Decided) (pipeline.Result, error)
	TranscriptPath(taskID string, iteration int, step string, attempt int) string
}

// Mode says when Run returns.
type Mode int

const (
	// Forever runs until the context ends.
	Forever Mode = iota
	// Once runs at most one task, then returns.
	Once
	// UntilIdle returns when nothing is running and nothing can be claimed.
	UntilIdle
)

// Options configure a Runner.
type Options struct {
	Store    Store
	Pipeline Pipeline
	// Settings returns the current settings; read before every claim, so
	// runner.enabled and runner.concurrency take effect between tasks.
	Settings func() settings.Settings
	// Poll is the longest wait between two looks at the store; at most 1 s
	// (default 500 ms).
	Poll time.Duration
	// Grace is the SIGTERM→SIGKILL grace for recovery (default 5 s).
	Grace time.Duration
	// ID names this runner in claim events (default host/pid).
	ID     string
	Now    func() time.Time
	Logger *slog.Logger
	// OnTaskDone is called after each task's run was recorded; may be nil.
	OnTaskDone func(t task.Task, res pipeline.Result)
	// Scope is the data root's step-tag scope (proc.Scope): recovery ends
	// every process carrying a runner step tag of it. Empty means recovery
	// relies on the recorded pids alone.
	Scope string
	// OnLog receives the recovery log lines (taskID "" for the summary), for
	// the runner's output; nil logs them through Logger.
	OnLog func(taskID string, execID int64, level task.LogLevel, text string)
}

// Runner is the queue loop. Its methods are safe for concurrent use.
type Runner struct {
	o    Options
	wake chan struct{}

	mu      sync.Mutex
	running map[string]bool
}

// New returns a Runner; Store, Pipeline and Settings are required.
func New(o Options) *Runner {
	if o.Poll <= 0 || o.Poll > time.Second {
		o.Poll = 500 * time.Millisecond
	}
	if o.Grace <= 0 {
		o.Grace = 5 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.ID == "" {
		host, _ := os.Hostname()
		o.ID = fmt.Sprintf("%s/%d", host, os.Getpid())
	}
	return &Runner{o: o, wake: make(chan struct{}, 1), running: map[string]bool{}}
}

// Wake makes the loop look at the queue now (after an in-process change).
func (r *Runner) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Running returns the ids of the tasks running now.
func (r *Runner) Running() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.running))
	for id := range r.running {
		ids = append(ids, id)
	}
	return ids
}

// slot is one running task's claim on the concurrency budget; release is
// idempotent.
type slot struct {
	once sync.Once
	free func()
}

func (s *slot) release() { s.once.Do(s.free) }

// Run recovers, then runs the loop in mode until ctx ends (then it waits
// for the running tasks, which record themselves as interrupted). It
// returns the recovery error, or nil.
func (r *Runner) Run(ctx context.Context, mode Mode) error {
	if _, err := r.Recover(ctx); err != nil {
		return err
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	freed := make(chan struct{}, 1)
	started := 0
	tick := time.NewTicker(r.o.Poll)
	defer tick.Stop()
	for {
		if ctx.Err() != nil {
			return nil
		}
		set := r.o.Settings()
		claimed := 0
		if set.Runner.Enabled && !(mode == Once && started > 0) {
			claimed = r.fill(ctx, set, &wg, freed)
			started += claimed
		}
		busy := len(r.Running())
		switch {
		case mode == Once && started > 0 && busy == 0:
			return nil
		case mode == Once && started == 0 && busy == 0 && claimed == 0:
			return nil
		case mode == UntilIdle && busy == 0 && claimed == 0:
			return nil
		}
		select {
		case <-ctx.Done():
		case <-r.wake:
		case <-freed:
		case <-tick.C:
		}
	}
}

// fill claims pending tasks into free slots and starts them; it returns how
// many it started.
func (r *Runner) fill(ctx context.Context, set settings.Settings, wg *sync.WaitGroup, freed chan<- struct{}) int {
	n := 0
	for tries := 0; tries < 100; tries++ {
		if len(r.Running()) >= max(set.Runner.Concurrency, 1) {
			return n
		}
		t, err := r.o.Store.NextPending(ctx)
		if err != nil {
			if !errors.Is(err, store.ErrNotFound) && ctx.Err() == nil {
				r.o.Logger.Warn("runner: next pending task", "err", err)
			}
			return n
		}
		ref, _ := set.Role(task.RolePlanner)
		if c, ok := t.Tools[task.RolePlanner]; ok && c.Tool != "" {
			ref = settings.ToolRef{Tool: c.Tool, Model: c.Model}
		}
		iter := t.CompletedRuns + 1
		ex, err := r.o.Store.Claim(ctx, t.ID, store.ClaimInfo{Runner: r.o.ID, Iteration: iter, Role: task.RolePlanner,
			Attempt: 1, Tool: ref.Tool, Model: ref.Model, TranscriptPath: r.o.Pipeline.TranscriptPath(t.ID, iter, "planner", 1),
			Repo: set.WorkDir()})
		if errors.Is(err, store.ErrClaimConflict) {
			continue // lost to another runner or changed meanwhile: never retried, take the next one
		}
		if err != nil {
			if ctx.Err() == nil {
				r.o.Logger.Warn("runner: claim", "task", t.ID, "err", err)
			}
			return n
		}
		t, err = r.o.Store.GetTask(ctx, t.ID)
		if err != nil {
			r.o.Logger.Warn("runner: read claimed task", "task", t.ID, "err", err)
			return n
		}
		r.mu.Lock()
		r.running[t.ID] = true
		r.mu.Unlock()
		s := &slot{free: func() {
			r.mu.Lock()
			delete(r.running, t.ID)
			r.mu.Unlock()
			select {
			case freed <- struct{}{}:
			default:
			}
		}}
		n++
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer s.release()
			res, err := r.o.Pipeline.Run(ctx, t, ex)
			if err != nil {
				r.o.Logger.Error("runner: task outcome not recorded", "task", t.ID, "err", err)
			}
			if r.o.OnTaskDone != nil {
				r.o.OnTaskDone(t, res)
			}
		}()
	}
	return n
}
