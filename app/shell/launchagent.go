package shell

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The start-at-login entry as a launchd LaunchAgent: a property list file
// under Library/LaunchAgents. Only the macOS platform file uses it; it is
// a pure writer of paths and text, so its tests run everywhere.

// launchAgentLabel is the agent's launchd label and file name.
const launchAgentLabel = "app.boof-runner.autostart"

// launchAgent is the entry at home/Library/LaunchAgents/<label>.plist (""
// means the user's home).
func launchAgent(home string) (Autostart, error) {
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return Autostart{}, fmt.Errorf("find the LaunchAgents folder: %w", err)
		}
		home = h
	}
	path := filepath.Join(home, "Library", "LaunchAgents", launchAgentLabel+".plist")
	return Autostart{Path: path, slot: fileSlot(path), format: launchAgentEntry}, nil
}

// launchAgentEntry is the LaunchAgent's property list: the app with
// --hidden (and --data-dir) run once at load; the marker is a comment.
func launchAgentEntry(a Autostart) string {
	args := []string{a.Exe, "--hidden"}
	if a.DataDir != "" {
		args = append(args, "--data-dir", a.DataDir)
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n" +
		"<!-- " + autostartMarker + " -->\n" +
		`<plist version="1.0">` + "\n<dict>\n" +
		"\t<key>Label</key>\n\t<string>" + launchAgentLabel + "</string>\n" +
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
