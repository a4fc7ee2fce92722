package runner

import (
	"context"
	"fmt"
	"log/slog"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/claude"
	"github.com/boof-runner/boof-runner/backend/agent/codex"
	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Installed reports whether a tool's CLI is on PATH (claude for
// claude-code, codex for codex); the mock is always there.
func Installed(tool string) bool {
	bin := map[string]string{settings.ToolClaude: "claude", settings.ToolCodex: "codex"}[tool]
	if bin == "" {
		return tool == settings.ToolMock
	}
	_, err := exec.LookPath(bin)
	return err == nil
}

// HostOptions configure a Host.
type HostOptions struct {
	// Paths is the data root.
	Paths dataroot.Paths
	// Store is the open store of that data root.
	Store *store.Store
	// MockCommand runs the mock agent (the app binary and mock.AgentCommand).
	MockCommand []string
	// Hooks receive live output for the UI.
	Hooks pipeline.Hooks
	// Logger receives warnings; default slog.Default().
	Logger *slog.Logger
	// Poll overrides the loop's poll interval (≤ 1 s).
	Poll time.Duration
}

// Host is everything one data root needs to run its queue: the runner
// lock, the settings file, the process runner, the agent tools, the
// worktree manager, the pipeline and the loop. The desktop app and the
// headless `runner` command build it the same way.
type Host struct {
	Lock     *Lock
	Settings *settings.File
	Procs    *proc.Runner
	Tools    *agent.Registry
	Pipeline *pipeline.Pipeline
	Runner   *Runner

	log      *slog.Logger
	warnOnce sync.Once
}

// OpenHost takes the runner lock of the data root and wires the queue. It
// returns a *LockedError when another process runs this data root's
// queue. Close it when done.
func OpenHost(o HostOptions) (*Host, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	lock, err := AcquireLock(o.Paths.RunnerLock())
	if err != nil {
		return nil, err
	}
	h := &Host{Lock: lock, Settings: settings.NewFile(o.Paths.Settings(), Installed), log: o.Logger}
	set := h.current()
	h.Procs = proc.NewRunner(proc.RunnerOptions{Logger: o.Logger})
	h.Tools = Tools(set, h.Procs, o.MockCommand, o.Paths)
	h.Pipeline = pipeline.New(pipeline.Options{
		Store:         o.Store,
		Tools:         h.Tools,
		Worktrees:     worktree.NewManager(gitx.New(), time.Now),
		Settings:      h.current,
		TranscriptDir: o.Paths.Transcripts(),
		Hooks:         o.Hooks,
		Logger:        o.Logger,
	})
	h.Runner = New(Options{Store: o.Store, Pipeline: h.Pipeline, Settings: h.current, Poll: o.Poll,
		Grace: time.Duration(set.Stop.GraceMs) * time.Millisecond, Logger: o.Logger})
	return h, nil
}

// Tools builds the agent tool registry the way the runner uses it: the mock
// (run as mockCommand), claude-code with mid-run input and codex, with the
// paths and environment of settings. Doctor and the Settings screen use the
// same registry for health checks.
func Tools(set settings.Settings, procs *proc.Runner, mockCommand []string, paths dataroot.Paths) *agent.Registry {
	tools := []agent.Tool{mock.New(mock.Options{Command: mockCommand, Runner: procs, StateDir: filepath.Join(paths.Root, "mock-state")})}
	cl := set.Tools[settings.ToolClaude]
	tools = append(tools, claude.New(claude.Options{Path: cl.Path, Runner: procs, Env: set.EnvList(settings.ToolClaude), MidRunInput: MidRunInput(settings.ToolClaude)}))
	cx := set.Tools[settings.ToolCodex]
	tools = append(tools, codex.New(codex.Options{Runner: procs, Path: cx.Path, Env: set.EnvList(settings.ToolCodex)}))
	return agent.NewRegistry(tools...)
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

// Run runs the loop (see Runner.Run).
func (h *Host) Run(ctx context.Context, mode Mode) error {
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
