package main

import _ "embed"

// appIcon is the window and tray icon.
//
//go:embed build/appicon.png
var appIcon []byte
