//go:build desktop || bindings

package desktop

import (
	"context"
	"errors"
	"log/slog"
	"os"

	"github.com/boof-runner/boof-runner/app/shell"
	"github.com/boof-runner/boof-runner/build"
	"github.com/boof-runner/boof-runner/frontend"
)

// Run claims the data root's desktop app first of all: when it runs
// already, the launch goes to it and this process ends. Otherwise it opens
// the app, shows the window until it closes, and closes the app (every
// running step stopped first) before giving up the claim.
func Run(ctx context.Context, _ []string, dataDir string, l Launch, log *slog.Logger) error {
	launch := shell.Launch{Hidden: l.Hidden, NewTask: l.NewTask, Review: l.Review, ReviewID: l.ReviewID}
	inst, handedOff, err := shell.ClaimInstance(ctx, dataDir, launch, log)
	if err != nil || handedOff {
		return err
	}
	desk, err := shell.OpenForWindow(ctx, shell.Options{
		Instance: inst, Launch: launch, Hidden: launch.Hidden, Log: log, Exe: frontExe(),
		Assets: frontend.Assets(), AppIcon: build.AppIcon, WindowIcon: build.WindowIcon,
		TrayIcons: shell.TrayIcons{Idle: build.TrayIdle, Running: build.TrayRunning, Attention: build.TrayAttention},
	})
	if err != nil {
		return errors.Join(err, inst.Close())
	}
	runErr := desk.Run()
	return errors.Join(runErr, desk.Close(), inst.Close())
}

// frontExe is the headless boof-runner that started this process (exec,
// front.go), "" when the desktop binary was started directly: the mock
// agent runs and the start-at-login entry name it, so neither pays for
// the desktop binary's libraries. The variable is not passed on to agents.
func frontExe() string {
	exe := os.Getenv(FrontEnv)
	os.Unsetenv(FrontEnv)
	if exe == "" {
		return ""
	}
	if fi, err := os.Stat(exe); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return ""
	}
	return exe
}
