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

// WindowIcon is the window's icon (PNG, 256 px): decoding the 1024 px
// AppIcon at every start cost the UI process 6 MiB of memory.
//
//go:embed linux/icons/hicolor/256x256/apps/boof-runner.png
var WindowIcon []byte

// The tray's state icons (PNG): idle, a task running, a task needs an answer.
var (
	//go:embed tray/idle.png
	TrayIdle []byte
	//go:embed tray/running.png
	TrayRunning []byte
	//go:embed tray/attention.png
	TrayAttention []byte
)
