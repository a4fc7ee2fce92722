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

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"

	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/cli"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/store"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(args) > 0 && (cli.IsCommand(args[0]) || args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
		return cli.Run(ctx, args, cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, cli.Env{Getenv: os.Getenv})
	}
	fs := flag.NewFlagSet("boof-runner", flag.ContinueOnError)
	dataDir := fs.String("data-dir", "", "data root directory (default $BOOF_RUNNER_HOME or the OS data dir)")
	if err := fs.Parse(args); err != nil {
		return cli.ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "boof-runner: unknown command %q (run 'boof-runner help')\n", fs.Arg(0))
		return cli.ExitUsage
	}
	if err := runDesktop(ctx, *dataDir); err != nil {
		fmt.Fprintf(os.Stderr, "boof-runner: %v\n", err)
		return cli.ExitUser
	}
	return cli.ExitOK
}

// runDesktop wires the store and the bound services and opens the window.
func runDesktop(ctx context.Context, dataDir string) error {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	root, err := dataroot.Default(dataDir)
	if err != nil {
		return err
	}
	if err := dataroot.Ensure(root); err != nil {
		return err
	}
	paths := dataroot.Paths{Root: root}
	st, err := store.Open(ctx, paths.Database(), store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()

	a := app.New(st, log)
	tasks := app.NewTaskService(st, a.Emitter(), a.Context, app.TaskDeps{})
	commands := app.NewCommandService(st, a.Emitter(), a.Context)
	return wails.Run(&options.App{
		Title:            "Boof Runner",
		Width:            1280,
		Height:           800,
		MinWidth:         1000,
		MinHeight:        640,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 24, G: 26, B: 31, A: 255},
		OnStartup:        a.Startup,
		OnDomReady:       a.DomReady,
		OnShutdown:       a.Shutdown,
		Bind:             []any{tasks, commands},
		Linux:            &linux.Options{ProgramName: "boof-runner", Icon: appIcon, WebviewGpuPolicy: linux.WebviewGpuPolicyNever},
	})
}
