// Command boof-runner is the Boof Runner desktop app and its headless CLI.
// With no command it opens the window (package app/shell); with one it runs
// headless (package backend/cli). This file is wiring only.
//
// It is built twice: with the desktop tag as boof-runner-desktop, the
// window, and without it as boof-runner, the command the user types: its
// headless commands never load GTK or WebKit, and it replaces itself with
// boof-runner-desktop (exec, same process) only to open the window
// (package app/desktop).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/boof-runner/boof-runner/app/desktop"
	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/cli"
)

// version is set at build time (-X main.version=…, scripts/version.sh).
var version = "0.0.0+dev"

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) > 0 && args[0] == mock.AgentCommand {
		// The deterministic offline agent, run by the mock tool as a real subprocess.
		return mock.Main(args[1:], os.Stdin, os.Stdout)
	}
	// SIGHUP (the terminal closed) ends a command as SIGINT and SIGTERM
	// do, through its context: by default it killed the process between a
	// file's temporary copy and its rename (a copy of the forge tokens was
	// left in the data root) or in the middle of a push.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if cli.IsHeadless(args) {
		return cli.Run(ctx, args, cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, cli.Env{Getenv: os.Getenv})
	}
	fs := flag.NewFlagSet("boof-runner", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dataDir := fs.String("data-dir", "", "data root directory (default $BOOF_RUNNER_HOME or the OS data dir)")
	hidden := fs.Bool("hidden", false, "start with the window hidden (show it from the tray)")
	newTask := fs.Bool("new-task", false, "open the window on the New task form")
	var review reviewFlag
	fs.Var(&review, "review", "open the Review screen on task `ID` (default: the oldest finished task waiting for review)")
	showVersion := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(os.Stderr, "boof-runner: %v (run 'boof-runner help')\n", err)
		return cli.ExitUsage
	}
	rest := fs.Args()
	if review.set && review.id == "" && len(rest) > 0 && !strings.HasPrefix(rest[0], "-") { // --review ID [more flags]
		review.id = rest[0]
		if err := fs.Parse(rest[1:]); err != nil {
			fmt.Fprintf(os.Stderr, "boof-runner: %v (run 'boof-runner help')\n", err)
			return cli.ExitUsage
		}
		rest = fs.Args()
	}
	if len(rest) > 0 {
		fmt.Fprintf(os.Stderr, "boof-runner: unknown command %q (run 'boof-runner help')\n", rest[0])
		return cli.ExitUsage
	}
	if *showVersion {
		fmt.Println("boof-runner", version)
		return cli.ExitOK
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	l := desktop.Launch{Hidden: *hidden, NewTask: *newTask, Review: review.set, ReviewID: review.id}
	if err := desktop.Run(ctx, args, *dataDir, l, log); err != nil {
		fmt.Fprintf(os.Stderr, "boof-runner: %v\n", err)
		return cli.ExitUser
	}
	return cli.ExitOK
}

// reviewFlag is --review with an optional task id: "--review", "--review=ID"
// or "--review ID".
type reviewFlag struct {
	set bool
	id  string
}

func (r *reviewFlag) String() string { return r.id }

func (r *reviewFlag) Set(s string) error {
	r.set = true
	if s != "true" {
		r.id = s
	}
	return nil
}

// IsBoolFlag lets --review stand alone.
func (r *reviewFlag) IsBoolFlag() bool { return true }
