// Command boof-runner is the Boof Runner desktop app and its headless CLI.
// With no command it opens the window; with one it runs headless.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/cli"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) > 0 && args[0] == "__mock-agent" {
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
	if err := runDesktop(ctx, desktopOptions{DataDir: *dataDir, Hidden: *hidden}, log); err != nil {
		fmt.Fprintf(os.Stderr, "boof-runner: %v\n", err)
		return cli.ExitUser
	}
	return cli.ExitOK
}
