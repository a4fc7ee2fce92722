package shell

// startToolkit does nothing on macOS: Wails starts Cocoa and WKWebView
// itself on the main thread (which fyne.io/systray's init keeps the main
// goroutine on).
func startToolkit() bool { return true }
