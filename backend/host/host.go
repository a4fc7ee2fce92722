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
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
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
	// Logger receives warnings; default slog.Default().
	Logger *slog.Logger
	// Poll overrides the loop's poll interval (≤ 1 s).
	Poll time.Duration
}

// Host is everything one data root needs to run its queue: the runner
// lock, the settings file, the process runner, the agent tools, the
// pipeline and the loop. The desktop app and the headless `runner`
// command build it the same way.
type Host struct {
	Lock     *runner.Lock
	Settings *settings.File
	Procs    *proc.Runner
	Tools    *agent.Registry
	Pipeline *pipeline.Pipeline
	Runner   *runner.Runner

	log      *slog.Logger
	warnOnce sync.Once
}

// Open takes the runner lock of the data root and wires the queue. It
// returns a *runner.LockedError when another process runs this data
// root's queue. Close it when done.
func Open(o Options) (*Host, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	lock, err := runner.AcquireLock(o.Paths.RunnerLock())
	if err != nil {
		return nil, err
	}
	h := &Host{Lock: lock, Settings: SettingsFile(o.Paths), log: o.Logger}
	scrubExisting(context.Background(), o.Store, o.Paths, o.Logger)
	set := h.current()
	// Every agent's output is scrubbed of secrets as it is read, before the
	// transcript, the parsers and the live terminal see it.
	h.Procs = proc.NewRunner(proc.RunnerOptions{Logger: o.Logger, Filter: func() proc.Filter { return secrets.NewStream() }})
	h.Tools = Tools(set, h.Procs, o.Exe, o.Paths)
	h.Pipeline = pipeline.New(pipeline.Options{
		Store:         o.Store,
		Tools:         h.Tools,
		Worktrees:     worktree.NewManager(gitx.New(), time.Now),
		Settings:      h.current,
		TranscriptDir: o.Paths.Transcripts(),
		Hooks:         o.Hooks,
		Logger:        o.Logger,
	})
	h.Runner = runner.New(runner.Options{Store: o.Store, Pipeline: h.Pipeline, Settings: h.current, Poll: o.Poll,
		Grace: time.Duration(set.Stop.GraceMs) * time.Millisecond, Logger: o.Logger})
	return h, nil
}

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

// Run runs the loop (see runner.Runner.Run).
func (h *Host) Run(ctx context.Context, mode runner.Mode) error {
	if err := h.Runner.Run(ctx, mode); err != nil {
		return fmt.Errorf("runner: %w", err)
	}
	return nil
}

// Close stops every process still running (grace from settings), then
// releases the lock. Call it after Run returned.
func (h *Host) Close() error {
	h.Procs.Shutdown(time.Duration(h.current().Stop.GraceMs) * time.Millisecond)
	return h.Lock.Release()
}
