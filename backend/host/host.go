// Package host is the composition root of one data root's queue: it builds
// the agent tools from the registered adapters and opens the runner host
// (lock, settings, processes, tools, pipeline, loop). The desktop app and
// the headless CLI use it; it is the only package that imports the agent
// adapters.
package host

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/budget"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/executor/kubernetes"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/mergequeue"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/verify"
	"github.com/boof-runner/boof-runner/backend/wake"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Options configure a Host.
type Options struct {
	// Paths is the data root.
	Paths dataroot.Paths
	// Store is the open store of that data root.
	Store *store.Store
	// Exe is the app binary; the mock runs its agent program as
	// `Exe mock.AgentCommand ...`.
	Exe string
	// Hooks receive live output for the UI.
	Hooks pipeline.Hooks
	// OnRunningChanged is runner.Options.OnRunningChanged: a task started
	// or ended.
	OnRunningChanged func()
	// Logger receives warnings; default slog.Default().
	Logger *slog.Logger
	// Poll overrides the loop's poll interval (≤ 1 s).
	Poll time.Duration
	// ControlPoll overrides how often a running step looks for stop and
	// inject controls without a wake-up (pipeline.Options.ControlPoll).
	ControlPoll time.Duration
	// GitTimeout bounds each git command the runner runs (a hook that
	// hangs); zero means DefaultGitTimeout.
	GitTimeout time.Duration
	// Now is the clock of the budgets (days and months in the machine's
	// local time) and of the queue (usage-limit pauses, not-before times,
	// schedules); default time.Now. Tests inject one to roll a period over
	// or pass a reset time.
	Now func() time.Time
}

// DefaultGitTimeout bounds each git command of the runner: long enough for
// checking out a very large repository, short enough that a hook that
// hangs does not hold a task forever.
const DefaultGitTimeout = 15 * time.Minute

// Host is everything one data root needs to run its queue: the runner
// lock, the settings file, the process runner, the agent tools, the
// pipeline and the loop. The desktop app and the headless `runner`
// command build it the same way.
type Host struct {
	// Services are the data root's services that need no lock (settings
	// file, git, review, worktrees, intake), built once with the host's
	// clock; the window and the CLI take them from here.
	*Services

	Lock     *runner.Lock
	Procs    *proc.Runner
	Tools    *agent.Registry
	Pipeline *pipeline.Pipeline
	// Executor runs the tasks whose executor is a cluster as Jobs and the
	// others through Pipeline; the runner runs every task through it.
	Executor *kubernetes.Pipeline
	Runner   *runner.Runner
	// Budgets keeps spend against settings.budgets and stops what a
	// reached cap covers.
	Budgets *budget.Engine

	// Scope is the data root's step-tag scope (proc.Scope).
	Scope string
	// Queue is the merge queue; Run drives it beside the task loop.
	Queue *mergequeue.Queue

	store *store.Store
	onLog func(taskID string, execID int64, level task.LogLevel, text string)
	// sig is fired by every wake-up of the runner.
	sig *wake.Signal
	// wake is the data root's wake-up socket, nil when it could not be
	// bound (controls then arrive through the poll).
	wake *wake.Listener

	log      *slog.Logger
	warnOnce sync.Once
}

// Open takes the runner lock of the data root and builds every backend
// service of it once, with the clock o.Now: the Services, the processes,
// the tools, the pipeline, the merge queue and the loop. It returns a
// *runner.LockedError when another process runs this data root's queue.
// ctx bounds the start-up work (the secrets scrub of older data). Close it
// when done.
func Open(ctx context.Context, o Options) (*Host, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	lock, err := runner.AcquireLock(o.Paths.RunnerLock())
	if err != nil {
		return nil, err
	}
	h := &Host{Services: NewServices(o), Lock: lock, Scope: proc.Scope(o.Paths.Root), log: o.Logger,
		store: o.Store, onLog: o.Hooks.OnLog}
	reserve := runner.NewReserve(o.Paths.DiskReserve(), runner.DefaultReserveSize)
	if err := reserve.Ensure(); err != nil {
		o.Logger.Warn("runner: no disk reserve", "err", err)
	}
	scrubExisting(ctx, o.Store, o.Paths, o.Logger)
	set := h.current()
	if o.GitTimeout <= 0 {
		o.GitTimeout = DefaultGitTimeout
	}
	// Every agent's output is scrubbed of secrets as it is read, before the
	// transcript, the parsers and the live terminal see it.
	// Its cgroups are named after the scope, so the recovery of a later
	// start finds what a crash left in them.
	h.Procs = proc.NewRunner(proc.RunnerOptions{Logger: o.Logger, Scope: h.Scope,
		Filter: func() proc.Filter { return secrets.NewStream() }})
	h.Tools = Tools(set, h.Procs, o.Exe, o.Paths)
	// The runner's own git commands: supervised like agents (own process
	// group, a deadline) and tagged so that recovery finds them.
	g := gitx.New(gitx.WithTimeout(o.GitTimeout),
		gitx.WithEnv(proc.StepTagEnv(h.Scope, proc.OwnerRun, "-", "git")))
	verifier := &verify.Runner{Procs: h.Procs, Git: g}
	h.Budgets = budget.New(budget.Options{Store: o.Store, Now: o.Now, Logger: o.Logger})
	sig := &wake.Signal{}
	h.sig = sig
	h.Pipeline = pipeline.New(pipeline.Options{
		Wake:          sig.Next,
		ControlPoll:   o.ControlPoll,
		Store:         o.Store,
		Budgets:       h.Budgets,
		Tools:         h.Tools,
		Worktrees:     worktree.NewManager(g, o.Now),
		Settings:      h.current,
		TranscriptDir: o.Paths.Transcripts(),
		Hooks:         o.Hooks,
		Logger:        o.Logger,
		Scope:         h.Scope,
		Describe:      func(err error) string { msg, _ := usererr.Describe(err); return msg },
		Verify:        verifier,
		Now:           o.Now,
		Switch:        SwitchTarget(h.current),
		ContextWindow: ContextWindow,
	})
	h.Queue = newMergeQueue(o.Paths, o.Store, h.Review, g, h.current, verifier, h.Scope)
	h.Executor = kubernetes.New(kubernetes.Options{Local: h.Pipeline, Store: o.Store, Settings: h.current, Paths: o.Paths,
		Hooks: o.Hooks, Git: g, ControlPoll: o.ControlPoll, Wake: sig.Next, Logger: o.Logger})
	h.Runner = runner.New(runner.Options{Store: o.Store, Pipeline: h.Executor, Settings: h.current, Poll: o.Poll,
		Grace: time.Duration(set.Stop.GraceMs) * time.Millisecond, Logger: o.Logger,
		Scope: h.Scope, OnLog: o.Hooks.OnLog, Ready: h.settingsReady, Reserve: reserve, Budgets: h.Budgets, Now: o.Now, Signal: sig,
		Switch: SwitchTarget(h.current), OnRunningChanged: o.OnRunningChanged})
	// Held by the lock, so a socket file there is a crashed runner's.
	if h.wake, err = wake.Listen(o.Paths.WakeSocket(), h.Runner.Wake); err != nil {
		o.Logger.Warn("runner: controls from other processes arrive through the poll only", "err", err)
	}
	return h, nil
}

// Woken returns the channel the next wake-up of the runner closes (an
// in-process Wake or a poke of the wake-up socket by another process): a
// window's watch of the store looks at once instead of at its next poll.
func (h *Host) Woken() <-chan struct{} { return h.sig.Next() }

// current loads the settings; a bad file gives the defaults and one warning.
func (h *Host) current() settings.Settings {
	s, err := h.Settings.Load()
	if err != nil {
		h.warnOnce.Do(func() {
			h.log.Warn("settings: using defaults in memory; the file is left as it is", "err", err)
		})
	}
	return s
}

// settingsReady refuses to start tasks while the settings file is
// malformed or invalid: running them on defaults would fail or misroute
// every one ("no working directory").
func (h *Host) settingsReady() error {
	_, err := h.Settings.Load()
	return err
}

// Run checks the database (a damaged one is refused with a
// *store.DamagedError before anything runs), reconciles the accepts a crash
// cut short (a failure is logged; the next accept of that repository tries
// again), then runs the loop (see runner.Runner.Run), which first recovers
// what a dead runner left.
func (h *Host) Run(ctx context.Context, mode runner.Mode) error {
	if err := h.store.Check(ctx); err != nil {
		return err
	}
	if err := ReconcileAccepts(ctx, h.Review, h.store, h.onLog); err != nil {
		h.log.Warn("runner: "+err.Error(), "err", err)
	}
	qctx, stopQueue := context.WithCancel(ctx)
	queueDone := make(chan struct{})
	go func() {
		defer close(queueDone)
		if mode == runner.Forever {
			h.driveQueue(qctx)
		}
	}()
	err := h.Runner.Run(ctx, mode)
	stopQueue()
	<-queueDone
	if err != nil {
		return fmt.Errorf("runner: %w", err)
	}
	if mode != runner.Forever && ctx.Err() == nil && h.current().Runner.Enabled {
		h.queuePass(ctx) // a headless --once or --until-idle run lands the queue too
	}
	return nil
}

// Close stops listening on the wake-up socket, stops every process still
// running (grace from settings), then every process still carrying a
// runner step tag of this data root (a git hook's daemon that left its
// group), then releases the lock. Call it after Run returned.
func (h *Host) Close() error {
	if h.wake != nil {
		_ = h.wake.Close()
	}
	_ = h.Executor.Close()
	grace := time.Duration(h.current().Stop.GraceMs) * time.Millisecond
	h.Procs.Shutdown(grace)
	if left, err := proc.KillTagged(proc.TagPrefix(h.Scope, proc.OwnerRun), grace); err != nil || len(left) > 0 {
		h.log.Warn("runner: stopped processes that outlived their step", "count", len(left), "err", err)
	}
	return h.Lock.Release()
}

// MergeQueue builds a merge queue over these services that reads the
// settings through set, without a verify runner: Add, Remove, Move and
// SendBack need none; the queue of a Host (Host.Queue) has one and lands
// entries.
func (s *Services) MergeQueue(set func() settings.Settings) *mergequeue.Queue {
	return newMergeQueue(s.Paths, s.Store, s.Review, s.Git, set, nil, "")
}

// newMergeQueue builds a merge queue whose landings verify with v (nil: a
// queue that only edits entries), tagging its processes with scope.
func newMergeQueue(paths dataroot.Paths, st *store.Store, rev *review.Service, g *gitx.Git, set func() settings.Settings, v *verify.Runner, scope string) *mergequeue.Queue {
	return &mergequeue.Queue{Store: st, Review: rev, Git: g, Settings: set, WorkDir: paths.MergeQueueWork(), Verify: v, Scope: scope,
		Describe: func(err error) string { msg, _ := usererr.Describe(err); return msg }}
}

// ReconcileAccepts completes or rolls back the accepts and undos a crash
// cut short (review.Service.Reconcile), records each resolution in its
// task's log and reports it to onLog (may be nil).
func ReconcileAccepts(ctx context.Context, svc *review.Service, st *store.Store, onLog func(taskID string, execID int64, level task.LogLevel, text string)) error {
	rec := review.StoreRecorder{Store: st}
	res, err := svc.Reconcile(ctx, rec)
	for _, r := range res {
		if nerr := rec.NoteResolution(ctx, r); nerr != nil && err == nil {
			err = nerr
		}
		if onLog != nil {
			onLog(r.Move.TaskID, 0, task.LevelWarn, r.String())
		}
	}
	if err != nil {
		return fmt.Errorf("reconcile interrupted accepts: %w", err)
	}
	return nil
}
