package shell

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The shell's platform file for Linux: what the desktop offers the app
// (tray, notifications, start at login) is reached through the session bus
// and the XDG folders.

// trayHostAvailable: a StatusNotifierWatcher owns its name on the session
// bus (no bus, or no watcher, means no tray).
func trayHostAvailable(ctx context.Context) bool { return sessionTrayHost(ctx) }

// platformAutostart is the XDG autostart entry under configHome (see
// autostartPath), a desktop entry file.
func platformAutostart(configHome string) (Autostart, error) {
	path, err := autostartPath(configHome)
	if err != nil {
		return Autostart{}, err
	}
	return Autostart{Path: path, slot: fileSlot(path), format: autostartEntry}, nil
}

// autostartPath is the XDG autostart entry's file under configHome ("" means
// $XDG_CONFIG_HOME, else ~/.config): configHome/autostart/boof-runner.desktop.
func autostartPath(configHome string) (string, error) {
	if configHome == "" {
		configHome = os.Getenv("XDG_CONFIG_HOME")
	}
	if configHome == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the autostart folder: %w", err)
		}
		configHome = filepath.Join(home, ".config")
	}
	return filepath.Join(configHome, "autostart", "boof-runner.desktop"), nil
}

// autostartEntry is the desktop entry's text.
func autostartEntry(a Autostart) string {
	exec := desktopQuote(a.Exe) + " --hidden"
	if a.DataDir != "" {
		exec += " --data-dir " + desktopQuote(a.DataDir)
	}
	return "[Desktop Entry]\n" +
		"Type=Application\n" +
		"Name=Boof Runner\n" +
		"Comment=Start Boof Runner hidden in the tray\n" +
		"Exec=" + exec + "\n" +
		"Icon=boof-runner\n" +
		"Terminal=false\n" +
		"X-GNOME-Autostart-enabled=true\n" +
		autostartMarker + "\n"
}

// desktopQuote quotes an Exec argument as the desktop entry specification
// asks: in double quotes when it holds a reserved character, with ", `, $
// and \ escaped.
func desktopQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\"'\\><~|&;$*?#()`=%") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", `$`, `\$`)
	q := `"` + r.Replace(s) + `"`
	// In a desktop file's value a backslash is itself escaped once more.
	return strings.ReplaceAll(q, `\`, `\\`)
}

// platformNotify leaves notifications to the session bus's notification
// server (notify.go): handled is false.
func platformNotify(context.Context, Notification) (handled bool, err error) { return false, nil }
