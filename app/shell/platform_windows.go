package shell

import (
	"context"
	"errors"
)

// The shell's platform file for Windows: the tray is the notification
// area, which every Windows desktop has (fyne.io/systray drives it through
// Shell_NotifyIcon).

// trayHostAvailable: the notification area is always there.
func trayHostAvailable(context.Context) bool { return true }

// autostartPath: start at login is not built for Windows yet (see
// docs/platforms.md); the app says so once in its log and the setting
// changes nothing.
func autostartPath(string) (string, error) {
	return "", errors.New("start at login is not available on Windows yet")
}

// autostartEntry is never written (autostartPath has no file).
func autostartEntry(Autostart) string { return "" }
