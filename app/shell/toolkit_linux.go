//go:build desktop

package shell

/*
#cgo pkg-config: gtk+-3.0 webkit2gtk-4.0
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>

// start_toolkit starts GTK and WebKit's default context. portal is the
// desktop portal's colour scheme (1 dark, 2 light, 0 none): GTK is told a
// dark preference before WebKit reads it. Bit 1 of the result: GTK
// started; bit 2: the window is dark (the portal's preference, else GTK's
// own settings: gtk-application-prefer-dark-theme, a "-dark" theme, or
// GTK_THEME ending in ":dark", as WebKit decides prefers-color-scheme).
static int start_toolkit(int portal) {
	if (!gtk_init_check(NULL, NULL))
		return 0;
	GtkSettings *s = gtk_settings_get_default();
	int dark = 0;
	if (s != NULL && portal != 0)
		g_object_set(s, "gtk-application-prefer-dark-theme", portal == 1, NULL);
	if (s != NULL) {
		gboolean prefer = FALSE;
		gchar *name = NULL;
		g_object_get(s, "gtk-application-prefer-dark-theme", &prefer, "gtk-theme-name", &name, NULL);
		dark = prefer || (name != NULL && g_str_has_suffix(name, "-dark"));
		g_free(name);
	}
	const char *env = g_getenv("GTK_THEME");
	if (portal == 0 && env != NULL && g_str_has_suffix(env, ":dark"))
		dark = 1;
	webkit_web_context_get_default();
	return 1 | (dark ? 2 : 0);
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
// this does not rely on it.) preferDark is the desktop portal's colour
// scheme when portalSaid; dark is the scheme the window gets (see
// start_toolkit).
func startToolkit(preferDark, portalSaid bool) (shown, dark bool) {
	runtime.LockOSThread()
	portal := 0
	if portalSaid {
		portal = 2
		if preferDark {
			portal = 1
		}
	}
	r := C.start_toolkit(C.int(portal))
	return r&1 != 0, r&2 != 0
}
