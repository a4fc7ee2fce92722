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
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boof-runner/boof-runner/backend/budget"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/wake"
)

// Store is the part of the store the runner uses.
type Store interface {
	NextClaimable(ctx context.Context, p store.Pick) (task.Task, error)
	ToolPauses(ctx context.Context, now time.Time) ([]task.ToolPause, error)
	ResumePoint(ctx context.Context, taskID string) (task.ResumePoint, bool, error)
	ScheduleStore
	Claim(ctx context.Context, taskID string, c store.ClaimInfo) (task.Execution, error)
	GetTask(ctx context.Context, id string) (task.Task, error)
	ListTasks(ctx context.Context, f store.Filter) ([]task.Task, error)
	OpenExecutions(ctx context.Context) ([]task.Execution, error)
	FinishExecution(ctx context.Context, execID int64, outcome task.ExecOutcome, exitCode int, usage task.Usage, costEstimated bool) error
	Transition(ctx context.Context, taskID string, to task.Status, note store.TransitionNote) (task.Task, error)
	AppendLog(ctx context.Context, taskID string, execID int64, level task.LogLevel, text string) error
	AppendEvent(ctx context.Context, taskID string, d task.EventData) error
	DecidedOutcome(ctx context.Context, taskID string) (store.Decided, bool, error)
	CleanupsLeft(ctx context.Context) ([]store.CleanupLeft, error)
}

// Pipeline runs one claimed task (pipeline.Pipeline).
type Pipeline interface {
	Run(ctx context.Context, t task.Task, first task.Execution) (pipeline.Result, error)
	CompleteDecided(ctx context.Context, t task.Task, d store.Decided) (pipeline.Result, error)
	RecordDecided(ctx context.Context, t task.Task, d store.Decided) (pipeline.Result, error)
	FinishLeft(ctx context.Context, t task.Task, c store.CleanupLeft) (bool, error)
	TranscriptPath(taskID string, iteration int, step string, attempt int) string
}

// Budgets says which pending tasks a reached budget cap holds back
// (budget.Engine).
type Budgets interface {
	Configure(ctx context.Context, b settings.Budgets) error
	Hold(ctx context.Context, t task.Task, tools []string) (*budget.Reached, error)
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
	// OnRunningChanged is called after a task joined or left what Running
	// returns (the left one after OnTaskDone), so a status view need not
	// poll for the end of a task that ended between two of its steps or
	// before its first; may be nil, must not block.
	OnRunningChanged func()
	// Scope is the data root's step-tag scope (proc.Scope): recovery ends
	// every process carrying a runner step tag of it. Empty means recovery
	// relies on the recorded pids alone.
	Scope string
	// OnLog receives the recovery log lines (taskID "" for the summary), for
	// the runner's output; nil logs them through Logger.
	OnLog func(taskID string, execID int64, level task.LogLevel, text string)
	// Ready, when set, is asked before each claim; while it returns an
	// error no task is started (a broken settings file): Run returns a
	// *NotReadyError in Once and UntilIdle mode and waits in Forever mode.
	Ready func() error
	// Budgets, when set, holds back the pending tasks a reached budget cap
	// covers: the queue claims none of them until the cap is raised or its
	// period rolls over (budget.Engine).
	Budgets Budgets
	// Reserve, when set, is deleted to make room when a task's outcome
	// cannot be recorded because the disk is full.
	Reserve *Reserve
	// Signal, when set, is fired by every Wake, so that whatever else
	// waits on it (the running steps' stop and inject watch) looks at the
	// store at once too.
	Signal *wake.Signal
	// Switch returns the tools a paused tool's steps may switch to, each
	// with whether it is installed (pipeline.Options.Switch): the tasks
	// that switch tools on a usage limit are claimed while their tool is
	// paused when one of those is installed and not paused. nil: they wait.
	Switch func(tool string) []pipeline.SwitchCandidate
}

// Runner is the queue loop. Its methods are safe for concurrent use.
type Runner struct {
	o    Options
	wake chan struct{}

	mu sync.Mutex
	// running holds the running tasks, true for those that run elsewhere
	// (Placer).
	running map[string]bool
	// fatal is the first outcome that could not be recorded; once set, no
	// task is started and Run returns it.
	fatal error
	// held is why each pending task is held back by a budget cap, as last
	// logged, so that a hold is logged once.
	held map[string]string
	// warned is the text of the last queue or readiness problem logged, so
	// a problem that persists is logged once.
	warned string
	// armed is true once the schedules were looked at after start; lastNow
	// is the clock at that look (a clock that goes back re-arms them).
	armed   bool
	lastNow time.Time
	// leftDue is set when a task's outcome was recorded: the clean-ups
	// earlier runs left are tried again (finishLeft).
	leftDue atomic.Bool
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

// Wake makes the loop look at the queue now (after an in-process change,
// or a poke of the wake-up socket by another process) and fires
// Options.Signal.
func (r *Runner) Wake() {
	r.o.Signal.Fire()
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

// Run recovers, tries again the worktree clean-ups earlier runs could not
// finish (a full disk; again after each task whose outcome it records),
// then runs the loop in mode until ctx ends (then it waits
// for the running tasks, which record themselves as interrupted). It
// returns nil when ctx ends or the mode's work is done, and otherwise, once
// the running tasks ended: the recovery error; an *UnrecordedError when a
// task's outcome could not be recorded (in every mode: nothing more is
// started); a *NotReadyError or a *QueueError (reading or claiming failed)
// in Once and UntilIdle mode, and in Forever mode a *QueueError for a
// damaged database. Other problems in Forever mode are logged and retried
// at the next poll.
func (r *Runner) Run(ctx context.Context, mode Mode) error {
	rec, err := r.Recover(ctx)
	if err != nil {
		return err
	}
	r.finishLeft(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	freed := make(chan struct{}, 1)
	r.follow(ctx, rec.Adopted, &wg, freed)
	started := 0
	tick := time.NewTicker(r.o.Poll)
	defer tick.Stop()
	for {
		if ctx.Err() != nil {
			return nil
		}
		if err := r.fatalErr(); err != nil {
			wg.Wait()
			return err
		}
		if r.leftDue.Swap(false) {
			r.finishLeft(ctx)
		}
		set := r.o.Settings()
		claimed := 0
		if set.Runner.Enabled && !(mode == Once && started > 0) {
			var err error
			if err = r.ready(); err != nil {
				err = &NotReadyError{Err: err}
			} else if err = r.fireSchedules(ctx, set); err != nil {
				err = &QueueError{Op: "fire schedules", Err: err}
			} else {
				claimed, err = r.fill(ctx, set, &wg, freed)
				started += claimed
			}
			if err != nil && ctx.Err() == nil {
				if mode != Forever || store.Damaged(err) {
					wg.Wait()
					return err
				}
				r.warnOnce(err)
			}
		}
		busy := len(r.Running())
		switch {
		case mode == Once && started > 0 && busy == 0:
			return r.fatalErr()
		case mode == Once && started == 0 && busy == 0 && claimed == 0:
			return r.fatalErr()
		case mode == UntilIdle && busy == 0 && claimed == 0:
			return r.fatalErr()
		}
		select {
		case <-ctx.Done():
		case <-r.wake:
		case <-freed:
		case <-tick.C:
		}
	}
}

func (r *Runner) ready() error {
	if r.o.Ready == nil {
		return nil
	}
	return r.o.Ready()
}

// warnOnce logs a queue problem unless the same one was logged last.
func (r *Runner) warnOnce(err error) {
	r.mu.Lock()
	same := r.warned == err.Error()
	r.warned = err.Error()
	r.mu.Unlock()
	if !same {
		r.o.Logger.Warn("runner: no task started", "err", err)
	}
}

func (r *Runner) fatalErr() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fatal
}

// fill claims pending tasks into free slots and starts them; it returns
// how many it started, and a *QueueError when reading or claiming failed
// (a claim lost to another runner is not an error: it is never retried and
// the next task is taken).
func (r *Runner) fill(ctx context.Context, set settings.Settings, wg *sync.WaitGroup, freed chan<- struct{}) (int, error) {
	n := 0
	var held []string
	if r.o.Budgets != nil {
		if err := r.o.Budgets.Configure(ctx, set.Budgets); err != nil {
			return n, &QueueError{Op: "budgets", Err: err}
		}
	}
	for tries := 0; tries < 100; tries++ {
		localFull, remoteFull := r.slotsFull(set)
		if (localFull && remoteFull) || r.fatalErr() != nil {
			return n, nil
		}
		pick, err := r.pick(ctx, set)
		if err != nil {
			return n, &QueueError{Op: "tool pauses", Err: err}
		}
		pick.Except = held
		t, err := r.o.Store.NextClaimable(ctx, pick)
		if errors.Is(err, store.ErrNotFound) {
			return n, nil
		}
		if err != nil {
			return n, &QueueError{Op: "next pending task", Err: err}
		}
		if hold, err := r.hold(ctx, t, set); err != nil {
			return n, &QueueError{Op: "budgets", TaskID: t.ID, Err: err}
		} else if hold {
			held = append(held, t.ID)
			tries--
			continue
		}
		remote := r.isRemote(t, set)
		if (remote && remoteFull && !r.clusterless(set)) || (!remote && localFull) {
			held = append(held, t.ID) // its kind of slot is taken: the next task may take the other
			tries--
			continue
		}
		info, err := r.claimInfo(ctx, set, t)
		if err != nil {
			return n, &QueueError{Op: "resume point", TaskID: t.ID, Err: err}
		}
		ex, err := r.o.Store.Claim(ctx, t.ID, info)
		if errors.Is(err, store.ErrClaimConflict) {
			continue // lost to another runner or changed meanwhile: never retried, take the next one
		}
		if err != nil {
			return n, &QueueError{Op: "claim", TaskID: t.ID, Err: err}
		}
		claimedID := t.ID
		t, err = r.o.Store.GetTask(ctx, claimedID)
		if err != nil {
			// Claimed but unreadable: hand it to the same path as an
			// outcome that cannot be recorded, so it is not left ongoing.
			r.unrecorded(claimedID, pipeline.Result{}, fmt.Errorf("read claimed task: %w", err))
			return n, nil
		}
		n++
		r.start(ctx, t, remote, wg, freed, func() (pipeline.Result, error) { return r.o.Pipeline.Run(ctx, t, ex) })
	}
	return n, nil
}

// start runs one claimed (or adopted) task's run in a slot of its own,
// remote or this machine's, and records its end.
func (r *Runner) start(ctx context.Context, t task.Task, remote bool, wg *sync.WaitGroup, freed chan<- struct{}, run func() (pipeline.Result, error)) {
	r.mu.Lock()
	r.running[t.ID] = remote
	r.mu.Unlock()
	r.runningChanged()
	s := &slot{free: func() {
		r.mu.Lock()
		delete(r.running, t.ID)
		r.mu.Unlock()
		r.runningChanged()
		select {
		case freed <- struct{}{}:
		default:
		}
	}}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer s.release()
		res, err := run()
		if err != nil {
			r.unrecorded(t.ID, res, err)
		} else {
			r.leftDue.Store(true)
		}
		if r.o.OnTaskDone != nil {
			r.o.OnTaskDone(t, res)
		}
	}()
}

// runningChanged tells OnRunningChanged, if set.
func (r *Runner) runningChanged() {
	if r.o.OnRunningChanged != nil {
		r.o.OnRunningChanged()
	}
}

// pick is what the claim filter needs: the time, the tools paused by a
// usage limit now, and the tool settings give each role.
func (r *Runner) pick(ctx context.Context, set settings.Settings) (store.Pick, error) {
	return PickFor(ctx, r.o.Store, set, r.o.Now(), r.o.Switch)
}

// PauseReader reads the tools paused by a usage limit (*store.Store).
type PauseReader interface {
	ToolPauses(ctx context.Context, now time.Time) ([]task.ToolPause, error)
}

// PickFor is the claim filter at now: the tools paused by a usage limit,
// those a task that switches tools may leave (sw is Options.Switch; nil:
// none), the tool settings give each role and whether tasks switch by
// default. The runner claims with it; the CLI tells with it
// (store.WaitingFor) which pending tasks wait for a paused tool.
func PickFor(ctx context.Context, st PauseReader, set settings.Settings, now time.Time, sw func(tool string) []pipeline.SwitchCandidate) (store.Pick, error) {
	p := store.Pick{Now: now, RoleTools: map[task.Role]string{}}
	pauses, err := st.ToolPauses(ctx, now)
	if err != nil {
		return p, err
	}
	for _, tp := range pauses {
		p.Paused = append(p.Paused, tp.Tool)
	}
	if sw != nil {
		for _, tool := range p.Paused {
			for _, c := range sw(tool) {
				if c.Installed && !slices.Contains(p.Paused, c.Tool) {
					p.Switchable = append(p.Switchable, tool)
					break
				}
			}
		}
	}
	p.SwitchByDefault = set.EffectiveOnLimit(task.OnLimitDefault) == task.OnLimitSwitch
	for _, role := range task.Roles {
		if ref, ok := set.Role(role); ok {
			p.RoleTools[role] = ref.Tool
		}
	}
	return p, nil
}

// claimInfo names the execution a claim opens: the planner's first
// attempt, or, for a task a usage limit released, the next attempt of the
// step it goes on from.
func (r *Runner) claimInfo(ctx context.Context, set settings.Settings, t task.Task) (store.ClaimInfo, error) {
	iter := t.NextIteration()
	role, round, attempt, step := task.RolePlanner, 0, 1, "planner"
	rp, ok, err := r.o.Store.ResumePoint(ctx, t.ID)
	if err != nil {
		return store.ClaimInfo{}, err
	}
	if ok && rp.Iteration == iter {
		role, round, attempt, step = rp.Role, rp.Round, rp.Attempt+1, rp.Step
	}
	ref, _ := set.Role(role)
	if c, ok := t.Tools[role]; ok && c.Tool != "" {
		ref = settings.ToolRef{Tool: c.Tool, Model: c.Model}
	}
	return store.ClaimInfo{Runner: r.o.ID, Iteration: iter, Role: role, Round: round, Attempt: attempt,
		Tool: ref.Tool, Model: ref.Model, TranscriptPath: r.o.Pipeline.TranscriptPath(t.ID, iter, step, attempt),
		Repo: set.WorkDir()}, nil
}
