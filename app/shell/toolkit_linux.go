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

import "runtime"

// startToolkit initialises GTK and creates WebKit's default web context
// (about 50 ms here: its process pool and data manager). Wails' own
// gtk_init_check then finds GTK initialised and returns at once, and its
// web view is created in that same default context. It reports false when
// GTK cannot start (no display to open); no context is made then.
//
// GTK and WebKit belong to the OS thread that starts them, and Go may
// move a goroutine to another thread whenever it blocks: the calling
// goroutine, the one that goes on to run Wails, is locked to its thread
// here and never unlocked, so Wails (which locks it again when it starts
// GTK) runs GTK's main loop on this same thread. (Today the init of
// fyne.io/systray already keeps the main goroutine on the main thread;
// this does not rely on it.)
func startToolkit() bool {
	runtime.LockOSThread()
	return C.start_toolkit() == 1
}
