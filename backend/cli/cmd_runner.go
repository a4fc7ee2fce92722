package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/task"
)

// runRunner runs the queue headless: `runner [--once | --until-idle]`.
// SIGINT, SIGTERM or SIGHUP stop it gracefully (running tasks are recorded as
// interrupted); it then exits 128 + the signal's number.
func runRunner(ctx context.Context, c *call) error {
	fs := c.newFlags()
	once := fs.Bool("once", false, "run at most one task, then exit")
	untilIdle := fs.Bool("until-idle", false, "exit when nothing runs and nothing can be claimed")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	if *once && *untilIdle {
		return usagef("--once and --until-idle exclude each other")
	}
	mode := runner.Forever
	switch {
	case *once:
		mode = runner.Once
	case *untilIdle:
		mode = runner.UntilIdle
	}
	ctx, signals := watchSignals(ctx)
	defer signals.stop()
	st, paths, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := host.SettingsFile(paths).Load(); err != nil {
		// Running on defaults would fail or misroute every task: refuse.
		return &runner.NotReadyError{Err: err}
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find own executable for the mock agent: %w", err)
	}
	var outMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(c.io.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	h, err := host.Open(ctx, host.Options{
		Paths: paths, Store: st, Exe: exe, Logger: logger, ControlPoll: controlPoll(c),
		Hooks: pipeline.Hooks{OnLog: func(taskID string, _ int64, level task.LogLevel, text string) {
			outMu.Lock()
			defer outMu.Unlock()
			if taskID == "" { // the runner's own lines (the recovery summary)
				fmt.Fprintf(c.io.Stdout, "boof-runner runner: %s\n", safeText(text))
				return
			}
			fmt.Fprintf(c.io.Stdout, "%s %-5s %s\n", taskID, level, safeText(text))
		}},
	})
	if err != nil {
		return err
	}
	defer h.Close()
	set, _ := h.Settings.Load()
	warnUnknownKeys(c, h.Settings)
	fmt.Fprintf(c.io.Stderr, "boof-runner runner: data root %s (pid %d); roles default to %s; concurrency %d; process trees: %s\n",
		safeLine(paths.Root), os.Getpid(), set.DefaultTool, set.Runner.Concurrency, h.Procs.Mechanism())
	if !set.Runner.Enabled {
		fmt.Fprintln(c.io.Stderr, "boof-runner runner: paused (runner.enabled is false); no task is started until it is true")
	}
	if err := h.Run(ctx, mode); err != nil {
		return err
	}
	if sig := signals.stop(); sig != 0 {
		// Stopped from outside: the running tasks were recorded as
		// interrupted. The exit code says so (130 SIGINT, 143 SIGTERM, 129 SIGHUP).
		fmt.Fprintf(c.io.Stderr, "boof-runner runner: stopped by %s\n", sigName(sig))
		return signalExit(sig)
	}
	return nil
}

// controlPollEnv sets how often a running step looks for controls without
// a wake-up (a Go duration; default 250 ms). For tests and diagnostics: a
// long one shows that controls arrive through the wake-up socket.
const controlPollEnv = "BOOF_RUNNER_CONTROL_POLL"

func controlPoll(c *call) time.Duration {
	getenv := c.env.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	d, err := time.ParseDuration(getenv(controlPollEnv))
	if err != nil || d <= 0 {
		return 0
	}
	return d
}
