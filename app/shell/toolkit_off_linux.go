//go:build !desktop

package shell

// startToolkit does nothing without the desktop tag: the window code is
// not built, and tests open the app without GTK.
func startToolkit() bool { return true }
