package shell

import (
	"context"
	"fmt"
	"os/exec"
)

// The shell's platform file for macOS: the tray is the menu bar's status
// item (fyne.io/systray drives it through NSStatusBar), start at login a
// LaunchAgent (launchagent.go), notifications osascript's.

// trayHostAvailable: the menu bar is always there.
func trayHostAvailable(context.Context) bool { return true }

// platformAutostart is the LaunchAgent under home ("" means the user's
// home): home/Library/LaunchAgents/app.boof-runner.autostart.plist, which
// launchd loads at the next login.
func platformAutostart(home string) (Autostart, error) { return launchAgent(home) }

// platformNotify shows m in Notification Center through osascript
// (notifyexec.go). A click on it does not open the task.
func platformNotify(ctx context.Context, m Notification) (handled bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, notifyExecTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "osascript", osascriptArgs(m)...).CombinedOutput()
	if err != nil {
		return true, fmt.Errorf("osascript: %w: %s", err, firstLine(string(out)))
	}
	return true, nil
}
