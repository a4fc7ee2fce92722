//go:build !desktop

package shell

// startToolkit does nothing without the desktop tag: the window code is
// not built, and tests open the app without GTK. The theme is light
// unless the portal asked for dark.
func startToolkit(preferDark, portalSaid bool) (shown, dark bool) { return true, preferDark }

// keepWebKitStorage does nothing without the desktop tag (no WebKit).
func keepWebKitStorage(data, cache string) {}
