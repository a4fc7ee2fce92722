//go:build desktop

package shell

/*
#cgo pkg-config: gtk+-3.0 webkit2gtk-4.0
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>

static int start_toolkit(void) {
	if (!gtk_init_check(NULL, NULL))
		return 0;
	webkit_web_context_get_default();
	return 1;
}
*/
import "C"

// startToolkit initialises GTK and creates WebKit's default web context
// (about 50 ms here: its process pool and data manager) on the calling
// thread, which must be the main thread, the one Wails runs GTK on (its
// frontend locks the main goroutine to it). Wails' own gtk_init_check then
// finds GTK initialised and returns at once, and its web view is created
// in that same default context. It reports false when GTK cannot start
// (no display to open); no context is made then.
func startToolkit() bool { return C.start_toolkit() == 1 }
