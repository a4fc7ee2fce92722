//go:build desktop

// Command webkitfloor is the floor of the window's cold start: a bare
// WebKitGTK program, without Go services, Wails or the front end, that
// opens a window of the app's size with the app's WebKit settings (no GPU
// acceleration, no DMA-BUF renderer), loads a one-line page and prints
// "first paint" at the page's first animation frame, as the app logs
// "window: first paint" at its front end's. `make bench` alternates it
// with the app (row P6b0): what is left of the cold start above it is ours.
package main

/*
#cgo pkg-config: gtk+-3.0 webkit2gtk-4.0
#include <stdio.h>
#include <stdlib.h>
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>

static void on_paint(WebKitUserContentManager *m, WebKitJavascriptResult *r, gpointer data) {
	printf("first paint\n");
	fflush(stdout);
}

static gboolean on_delete(GtkWidget *w, GdkEvent *e, gpointer data) {
	gtk_main_quit();
	return FALSE;
}

static int run(const char *html) {
	if (!gtk_init_check(NULL, NULL))
		return 1;
	GtkWidget *win = gtk_window_new(GTK_WINDOW_TOPLEVEL);
	gtk_window_set_title(GTK_WINDOW(win), "webkitfloor");
	gtk_window_set_default_size(GTK_WINDOW(win), 1280, 800);
	g_signal_connect(win, "delete-event", G_CALLBACK(on_delete), NULL);
	WebKitUserContentManager *ucm = webkit_user_content_manager_new();
	g_signal_connect(ucm, "script-message-received::paint", G_CALLBACK(on_paint), NULL);
	webkit_user_content_manager_register_script_message_handler(ucm, "paint");
	GtkWidget *view = webkit_web_view_new_with_user_content_manager(ucm);
	WebKitSettings *s = webkit_web_view_get_settings(WEBKIT_WEB_VIEW(view));
	webkit_settings_set_hardware_acceleration_policy(s, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);
	GdkRGBA bg = {24 / 255.0, 26 / 255.0, 31 / 255.0, 1};
	webkit_web_view_set_background_color(WEBKIT_WEB_VIEW(view), &bg);
	gtk_container_add(GTK_CONTAINER(win), view);
	webkit_web_view_load_html(WEBKIT_WEB_VIEW(view), html, "about:blank");
	gtk_widget_show_all(win);
	gtk_main();
	return 0;
}
*/
import "C"

import (
	"fmt"
	"os"
	"unsafe"
)

const page = `<!doctype html><html><body style="background:#181a1f;color:#ddd;font-family:sans-serif">` +
	`<p>Boof Runner</p><script>requestAnimationFrame(() => window.webkit.messageHandlers.paint.postMessage(1))</script></body></html>`

func main() {
	if os.Getenv("WEBKIT_DISABLE_DMABUF_RENDERER") == "" {
		os.Setenv("WEBKIT_DISABLE_DMABUF_RENDERER", "1") // as the app sets it (app/shell/webkit_env.go)
	}
	html := C.CString(page)
	defer C.free(unsafe.Pointer(html))
	if C.run(html) != 0 {
		fmt.Fprintln(os.Stderr, "webkitfloor: cannot open a display")
		os.Exit(1)
	}
}
