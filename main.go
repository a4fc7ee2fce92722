// Command boof-runner is the Boof Runner desktop app and its headless CLI.
// With no command it opens the window (package app/shell); with one it runs
// headless (package backend/cli). This file is wiring only.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
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
	if len(args) > 0 && (cli.IsCommand(args[0]) || args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
		return cli.Run(ctx, args, cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, cli.Env{Getenv: os.Getenv})
	}
	fs := flag.NewFlagSet("boof-runner", flag.ContinueOnError)
	dataDir := fs.String("data-dir", "", "data root directory (default $BOOF_RUNNER_HOME or the OS data dir)")
	hidden := fs.Bool("hidden", false, "start with the window hidden (show it from the tray)")
	if err := fs.Parse(args); err != nil {
		return cli.ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "boof-runner: unknown command %q (run 'boof-runner help')\n", fs.Arg(0))
		return cli.ExitUsage
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := runDesktop(ctx, *dataDir, *hidden, log); err != nil {
		fmt.Fprintf(os.Stderr, "boof-runner: %v\n", err)
		return cli.ExitUser
	}
	return cli.ExitOK
}

// runDesktop opens the desktop app on the data root, shows the window until
// it closes, and closes the app (every running step stopped first).
func runDesktop(ctx context.Context, dataDir string, hidden bool, log *slog.Logger) error {
	desk, err := shell.Open(ctx, shell.Options{
		DataDir: dataDir, Hidden: hidden, Log: log, Assets: frontend.Assets(), AppIcon: build.AppIcon,
		TrayIcons: shell.TrayIcons{Idle: build.TrayIdle, Running: build.TrayRunning, Attention: build.TrayAttention},
	})
	if err != nil {
		return err
	}
	runErr := desk.Run()
	return errors.Join(runErr, desk.Close())
}
