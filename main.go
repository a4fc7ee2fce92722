// Command boof-runner is the Boof Runner desktop app and its headless CLI.
// With no command it opens the window (package app/shell); with one it runs
// headless (package backend/cli). This file is wiring only.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/boof-runner/boof-runner/app/shell"
	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/cli"
	"github.com/boof-runner/boof-runner/build"
	"github.com/boof-runner/boof-runner/frontend"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) > 0 && args[0] == mock.AgentCommand {
		// The deterministic offline agent, run by the mock tool as a real subprocess.
		return mock.Main(args[1:], os.Stdin, os.Stdout)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cli.IsHeadless(args) {
		return cli.Run(ctx, args, cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, cli.Env{Getenv: os.Getenv})
	}
	fs := flag.NewFlagSet("boof-runner", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dataDir := fs.String("data-dir", "", "data root directory (default $BOOF_RUNNER_HOME or the OS data dir)")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(os.Stderr, "boof-runner: %v (run 'boof-runner help')\n", err)
		return cli.ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "boof-runner: unknown command %q (run 'boof-runner help')\n", fs.Arg(0))
		return cli.ExitUsage
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := runDesktop(ctx, *dataDir, log); err != nil {
		fmt.Fprintf(os.Stderr, "boof-runner: %v\n", err)
		return cli.ExitUser
	}
	return cli.ExitOK
}

// runDesktop opens the desktop app on the data root, shows the window until
// it closes, and closes the app (every running step stopped first).
func runDesktop(ctx context.Context, dataDir string, log *slog.Logger) error {
	desk, err := shell.Open(ctx, shell.Options{
		DataDir: dataDir, Log: log, Assets: frontend.Assets(), AppIcon: build.AppIcon,
		TrayIcons: shell.TrayIcons{Idle: build.TrayIdle, Running: build.TrayRunning, Attention: build.TrayAttention},
	})
	if err != nil {
		return err
	}
	runErr := desk.Run()
	return errors.Join(runErr, desk.Close())
}
