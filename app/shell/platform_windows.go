package shell

import "context"

// The shell's platform file for Windows: the tray is the notification
// area, which every Windows desktop has (fyne.io/systray drives it through
// Shell_NotifyIcon); start at login a value under the user's Run key
// (autostart_windows.go).

// trayHostAvailable: the notification area is always there.
func trayHostAvailable(context.Context) bool { return true }

// platformAutostart is the "Boof Runner" value of
// HKCU\Software\Microsoft\Windows\CurrentVersion\Run, which Explorer runs
// at the next login; key, when not "", is a key under HKCU standing in for
// Software\Microsoft\Windows\CurrentVersion (tests).
func platformAutostart(key string) (Autostart, error) { return runValueAutostart(key), nil }
