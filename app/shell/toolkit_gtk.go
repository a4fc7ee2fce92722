//go:build desktop

package shell

/*
#cgo pkg-config: gtk+-3.0
#include <gtk/gtk.h>
*/
import "C"

// startToolkit initialises GTK on the calling thread, which must be the
// main thread, the one Wails runs GTK on (its frontend locks the main
// goroutine to it). Wails' own gtk_init_check then finds GTK initialised
// and returns at once; when this one fails (no display), Wails' fails the
// same way and reports it, so the result is not looked at here.
func startToolkit() { C.gtk_init_check(nil, nil) }
