package shell

import (
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The shell's platform file for macOS: the tray is the menu bar's status
// item (fyne.io/systray drives it through NSStatusBar), start at login a
// LaunchAgent.

// trayHostAvailable: the menu bar is always there.
func trayHostAvailable(context.Context) bool { return true }

// autostartPath is the LaunchAgent's file under home ("" means the user's
// home): home/Library/LaunchAgents/app.boof-runner.autostart.plist, which
// launchd loads at the next login.
func autostartPath(home string) (string, error) {
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the LaunchAgents folder: %w", err)
		}
		home = h
	}
	return filepath.Join(home, "Library", "LaunchAgents", "app.boof-runner.autostart.plist"), nil
}

// autostartEntry is the LaunchAgent's property list: the app with
// --hidden (and --data-dir) run once at load; the marker is a comment.
func autostartEntry(a Autostart) string {
	args := []string{a.Exe, "--hidden"}
	if a.DataDir != "" {
		args = append(args, "--data-dir", a.DataDir)
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n" +
		"<!-- " + autostartMarker + " -->\n" +
		`<plist version="1.0">` + "\n<dict>\n" +
		"\t<key>Label</key>\n\t<string>app.boof-runner.autostart</string>\n" +
		"\t<key>ProgramArguments</key>\n\t<array>\n")
	for _, arg := range args {
		b.WriteString("\t\t<string>")
		xml.EscapeText(&b, []byte(arg))
		b.WriteString("</string>\n")
	}
	b.WriteString("\t</array>\n" +
		"\t<key>RunAtLoad</key>\n\t<true/>\n" +
		"\t<key>ProcessType</key>\n\t<string>Interactive</string>\n" +
		"</dict>\n</plist>\n")
	return b.String()
}
