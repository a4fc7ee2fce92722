//go:build desktop

package shell

/*
#cgo pkg-config: gtk+-3.0 webkit2gtk-4.0
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>

static void start_toolkit(void) {
	gtk_init_check(NULL, NULL);
	webkit_web_context_get_default();
}
*/
import "C"

// startToolkit initialises GTK and creates WebKit's default web context
// (about 50 ms here: its process pool and data manager) on the calling
// thread, which must be the main thread, the one Wails runs GTK on (its
// frontend locks the main goroutine to it). Wails' own gtk_init_check then
// finds GTK initialised and returns at once, and its web view is created
// in that same default context. When GTK cannot start (no display), Wails'
// call fails the same way and reports it, so nothing is looked at here.
func startToolkit() { C.start_toolkit() }
