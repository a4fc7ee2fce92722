package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// desktopOptions are the desktop app's command-line options.
type desktopOptions struct {
	DataDir string // data root ("" = the default)
	Hidden  bool   // start with the window hidden
}

// runDesktop wires the store, the runner host and the bound services, and
// opens the window. The runner loop runs while the window is open; closing
// the app stops every running step (grace, then kill) before it exits.
func runDesktop(ctx context.Context, opts desktopOptions, log *slog.Logger) error {
	root, err := dataroot.Default(opts.DataDir)
	if err != nil {
		return err
	}
	if err := dataroot.Ensure(root); err != nil {
		return err
	}
	paths := dataroot.Paths{Root: root}
	st, err := store.Open(ctx, paths.Database(), store.Options{AttachmentsDir: paths.Attachments()})
	if err != nil {
		return err
	}
	defer st.Close()

	a := app.New(st, log)
	// Every hint also refreshes the tray and the notifier (set up below).
	var tray *app.Tray
	var notifier *app.Notifier
	hint := func() {
		if tray != nil {
			tray.Hint()
		}
		if notifier != nil {
			notifier.Hint()
		}
	}
	a.OnChange(hint)
	emit := app.HintEmitter{Next: a.Emitter(), On: []func(){hint}}
	live := app.NewLiveOutput(emit, pipeline.Scrub, time.Now, 0)
	defer live.Close()

	exe, err := os.Executable()
	if err != nil {
		return err
	}
	var runSvc *app.RunService
	status := func() (app.RunnerStatus, error) { return runSvc.Status() }
	host, err := runner.OpenHost(runner.HostOptions{
		Paths: paths, Store: st, MockCommand: []string{exe, "__mock-agent"}, Logger: log,
		Hooks: app.PipelineHooks(live, emit, status),
	})
	lockMsg := ""
	var locked *runner.LockedError
	switch {
	case errors.As(err, &locked):
		lockMsg = locked.Error() // this window still reads, adds tasks and sends controls
		log.Warn("runner", "err", err)
	case err != nil:
		return err
	}
	sf := settings.NewFile(paths.Settings(), runner.Installed)
	var tools func() []agent.Tool
	if host != nil {
		sf = host.Settings
		tools = func() []agent.Tool {
			var ts []agent.Tool
			for _, n := range host.Tools.Names() {
				if t, err := host.Tools.Get(n); err == nil {
					ts = append(ts, t)
				}
			}
			return ts
		}
	} else {
		tools = func() []agent.Tool { return nil }
	}
	runSvc = app.NewRunService(st, host, lockMsg, sf, live, emit, a.Context)

	g := gitx.New()
	wt := worktree.NewManager(g, time.Now)
	rev := review.New(g, time.Now)
	workDir := func() string {
		s, _ := sf.Load()
		return s.WorkingDirectory
	}
	wake := func() {
		if host != nil {
			host.Runner.Wake()
		}
	}
	removeBranches := func(ctx context.Context, t task.Task) error {
		if t.Repo == "" {
			return nil
		}
		bs, err := rev.TaskBranches(ctx, t.Repo, t.ID)
		if err != nil {
			return err
		}
		_, err = rev.DeleteBranches(ctx, t.Repo, t.ID, bs)
		return err
	}
	resolveBase := func(ctx context.Context, repo, ref string) error {
		_, err := g.ResolveCommit(ctx, repo, ref)
		return err
	}
	tasks := app.NewTaskService(st, emit, a.Context, app.TaskDeps{WorkDir: workDir, Wake: wake, Branches: branches(g), RemoveBranches: removeBranches, ResolveBase: resolveBase})
	diag := app.NewDiagService(log, emit, a.Context)
	commands := app.NewCommandService(st, emit, a.Context)
	settingsSvc := app.NewSettingsService(sf, st, tools, emit, a.Context, a.WailsContext)
	reviewSvc := app.NewReviewService(g, st, wt, rev, emit, a.Context)

	uiSettings := func() settings.UI {
		s, _ := sf.Load()
		return s.UI
	}
	win := app.NewWailsWindow(true)
	var wg sync.WaitGroup
	runCtx, stopRunner := context.WithCancel(ctx)
	startRunner := func() {
		if host == nil {
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := host.Run(runCtx, runner.Forever); err != nil && !errors.Is(err, context.Canceled) {
				log.Error("runner stopped", "err", err)
			}
		}()
	}
	var once sync.Once
	shutdown := func() {
		once.Do(func() {
			stopRunner()
			wg.Wait()
			if host != nil {
				if err := host.Close(); err != nil {
					log.Error("runner close", "err", err)
				}
			}
		})
	}
	defer shutdown()

	desk := app.NewDesktop(app.DesktopDeps{Store: st, Run: runSvc, Window: win, Emitter: emit, Shutdown: shutdown,
		CloseToTray: func() bool { return uiSettings().CloseToTray }, Context: a.Context, Log: log})
	notifier = app.NewNotifier(st, app.NotifierOptions{Enabled: func() bool { return uiSettings().Notifications }, Log: log})
	defer notifier.Close()
	if tray, err = app.StartTray(desk, app.TrayOptions{Icons: trayIcons}); err != nil {
		log.Info("no system tray", "err", err)
		tray = nil
	} else {
		defer tray.Close()
	}

	return wails.Run(&options.App{
		Title:            "Boof Runner",
		Width:            1280,
		Height:           800,
		MinWidth:         1000,
		MinHeight:        640,
		StartHidden:      opts.Hidden,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 24, G: 26, B: 31, A: 255},
		OnStartup: func(c context.Context) {
			a.Startup(c)
			win.Attach(c)
			notifier.Start(a.Context(), 2*time.Second)
			startRunner()
			go runSvc.WatchStatus(a.Context(), 500*time.Millisecond)
			diag.StartProbes(a.Context(), root)
			go func() { // SIGINT/SIGTERM: quit through Wails so OnShutdown stops every step
				select {
				case <-ctx.Done():
					wruntime.Quit(c)
				case <-a.Context().Done():
				}
			}()
		},
		OnDomReady:    a.DomReady,
		OnBeforeClose: desk.BeforeClose,
		OnShutdown: func(c context.Context) {
			shutdown()
			a.Shutdown(c)
		},
		Bind:  []any{tasks, commands, runSvc, settingsSvc, reviewSvc, diag},
		Linux: &linux.Options{ProgramName: "boof-runner", Icon: appIcon, WebviewGpuPolicy: linux.WebviewGpuPolicyNever},
	})
}

// branches lists a working directory's branches for the base-ref picker,
// without the task branches.
func branches(g *gitx.Git) app.Branches {
	return func(ctx context.Context, repo string) ([]string, error) {
		return g.Branches(ctx, repo, "boof-runner/")
	}
}
