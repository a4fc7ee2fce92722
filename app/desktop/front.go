//go:build !desktop && !bindings

package desktop

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/app/desktop/handoff"
	"github.com/boof-runner/boof-runner/backend/dataroot"
)

// Run hands the launch to the data root's app when one runs (the
// single-instance hand-off, without loading the window binary and its
// libraries: a second launch costs a socket round trip); otherwise it
// replaces this process with the desktop binary (same pid, same
// arguments, argv[0] kept so GTK's program name and the window class stay
// "boof-runner"), which claims the data root itself. It returns only
// when the launch was handed over (nil) or that binary is missing or
// cannot be started.
func Run(ctx context.Context, args []string, dataDir string, l Launch, log *slog.Logger) error {
	if handedOver(ctx, dataDir, l, log) {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this program: %w", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	desk, tried := findDesktop(exe, os.Getenv("BOOF_DESKTOP_BIN"))
	if desk == "" {
		return fmt.Errorf("the desktop app is not installed (no %s in %s); the headless commands work: run 'boof-runner help'",
			desktopName, strings.Join(tried, ", "))
	}
	env := append(os.Environ(), FrontEnv+"="+exe)
	argv := append([]string{os.Args[0]}, args...)
	if err := execDesktop(desk, argv, env); err != nil {
		return fmt.Errorf("start the desktop app %s: %w", desk, err)
	}
	return nil
}

// findDesktop returns the desktop binary for the headless one at exe:
// override (BOOF_DESKTOP_BIN) when set, else the first executable of
// exe's folder (a build tree), PREFIX/lib/boof-runner and
// PREFIX/libexec/boof-runner (make install, the packages). It also returns
// the places it looked.
func findDesktop(exe, override string) (string, []string) {
	dir := filepath.Dir(exe)
	places := []string{
		filepath.Join(dir, desktopName),
		filepath.Join(dir, "..", "lib", "boof-runner", desktopName),
		filepath.Join(dir, "..", "libexec", "boof-runner", desktopName),
	}
	if override != "" {
		places = []string{override}
	}
	for i, p := range places {
		places[i] = filepath.Clean(p)
		if fi, err := os.Stat(places[i]); err == nil && !fi.IsDir() && executable(fi) {
			return places[i], places
		}
	}
	return "", places
}

// handedOver gives l to the data root's running app, when one holds its
// claim and takes the launch. Anything else (no data root yet, no app, an
// app that is starting or quitting and does not answer) leaves the launch
// to the desktop binary, which waits for the app or starts one.
func handedOver(ctx context.Context, dataDir string, l Launch, log *slog.Logger) bool {
	root, err := dataroot.Default(dataDir)
	if err != nil || !handoff.Held(root) {
		return false
	}
	launch := handoff.Launch{Hidden: l.Hidden, NewTask: l.NewTask, Review: l.Review, ReviewID: l.ReviewID}
	if err := handoff.Send(ctx, handoff.SocketPath(root), launch); err != nil {
		if log != nil {
			log.Info("single instance: the running app did not take the launch yet; starting the desktop binary", "err", err)
		}
		return false
	}
	return true
}
