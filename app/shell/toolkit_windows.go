package shell

// startToolkit does nothing on Windows: Wails starts WebView2 itself, and
// its window code needs no toolkit initialised before it. The theme is
// what the caller was told (preferDark).
func startToolkit(preferDark, portalSaid bool) (shown, dark bool) { return true, preferDark }

// keepWebKitStorage does nothing on Windows: there is no WebKit; WebView2
// keeps its user data folder where Wails' options put it.
func keepWebKitStorage(data, cache string) {}
