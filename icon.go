package main

import (
	_ "embed"

	"github.com/boof-runner/boof-runner/app"
)

// appIcon is the window and tray icon.
//
//go:embed build/appicon.png
var appIcon []byte

var (
	//go:embed build/tray/idle.png
	trayIdle []byte
	//go:embed build/tray/running.png
	trayRunning []byte
	//go:embed build/tray/attention.png
	trayAttention []byte
)

// trayIcons are the tray's state icons: idle, running, needs attention.
var trayIcons = app.TrayIcons{Idle: trayIdle, Running: trayRunning, Attention: trayAttention}
