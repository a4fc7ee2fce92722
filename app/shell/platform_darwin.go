package shell

import "context"

// The shell's platform file for macOS: the tray is the menu bar's status
// item (fyne.io/systray drives it through NSStatusBar), start at login a
// LaunchAgent (launchagent.go).

// trayHostAvailable: the menu bar is always there.
func trayHostAvailable(context.Context) bool { return true }

// platformAutostart is the LaunchAgent under home ("" means the user's
// home): home/Library/LaunchAgents/app.boof-runner.autostart.plist, which
// launchd loads at the next login.
func platformAutostart(home string) (Autostart, error) { return launchAgent(home) }
