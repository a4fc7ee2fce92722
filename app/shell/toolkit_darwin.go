package shell

// startToolkit does nothing on macOS: Wails starts Cocoa and WKWebView
// itself on the main thread (which fyne.io/systray's init keeps the main
// goroutine on). The theme is what the caller was told (preferDark).
func startToolkit(preferDark, portalSaid bool) (shown, dark bool) { return true, preferDark }

// keepWebKitStorage does nothing on macOS: WKWebView keeps its storage
// in the app's own container, not in a shared folder named after us.
func keepWebKitStorage(data, cache string) {}
