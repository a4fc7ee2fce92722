//go:build desktop

package shell

/*
#cgo pkg-config: gtk+-3.0 webkit2gtk-4.0
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include <stdlib.h>

// keep_storage_in makes GLib's user data and cache folders data and cache
// for this process: GLib reads XDG_DATA_HOME and XDG_CACHE_HOME once, at
// the first g_get_user_data_dir and g_get_user_cache_dir, and keeps what
// it read for the life of the process. They are set for that first read
// and put back at once, so the environment (Go's, the agents', WebKit's
// child processes') is as it was; WebKit's default context then keeps its
// storage under them instead of ~/.local/share and ~/.cache.
static void keep_storage_in(const char *data, const char *cache) {
	gchar *old_data = g_strdup(g_getenv("XDG_DATA_HOME"));
	gchar *old_cache = g_strdup(g_getenv("XDG_CACHE_HOME"));
	g_setenv("XDG_DATA_HOME", data, TRUE);
	g_setenv("XDG_CACHE_HOME", cache, TRUE);
	g_get_user_data_dir();
	g_get_user_cache_dir();
	if (old_data != NULL)
		g_setenv("XDG_DATA_HOME", old_data, TRUE);
	else
		g_unsetenv("XDG_DATA_HOME");
	if (old_cache != NULL)
		g_setenv("XDG_CACHE_HOME", old_cache, TRUE);
	else
		g_unsetenv("XDG_CACHE_HOME");
	g_free(old_data);
	g_free(old_cache);
}

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

import (
	"runtime"
	"unsafe"
)

// keepWebKitStorage makes GLib's user data and cache folders, where WebKit's
// default context keeps its storage (hsts-storage.sqlite, mediakeys,
// storage, its caches), data and cache inside the data root. It must run
// before anything reads them (GTK, WebKit), on a process whose other
// threads read no C environment yet: OpenForWindow calls it first.
func keepWebKitStorage(data, cache string) {
	d, c := C.CString(data), C.CString(cache)
	defer C.free(unsafe.Pointer(d))
	defer C.free(unsafe.Pointer(c))
	C.keep_storage_in(d, c)
}

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
