// Package build holds the app's icons, embedded from Wails' build directory
// (appicon.png is also where Wails derives the per-OS icons from).
package build

import (
	_ "embed"
)

// AppIcon is the window and desktop icon (PNG).
//
//go:embed appicon.png
var AppIcon []byte

// The tray's state icons (PNG): idle, a task running, a task needs an answer.
var (
	//go:embed tray/idle.png
	TrayIdle []byte
	//go:embed tray/running.png
	TrayRunning []byte
	//go:embed tray/attention.png
	TrayAttention []byte
)
