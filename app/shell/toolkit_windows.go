package shell

// startToolkit does nothing on Windows: Wails starts WebView2 itself, and
// its window code needs no toolkit initialised before it.
func startToolkit() bool { return true }
