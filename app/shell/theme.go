package shell

import (
	"context"
	"time"

	"github.com/godbus/dbus/v5"
)

// The window's colour scheme follows the desktop's preference: the
// freedesktop portal's org.freedesktop.appearance color-scheme (GNOME,
// KDE, …), else GTK's own settings (gtk-application-prefer-dark-theme, a
// "-dark" theme, GTK_THEME=…:dark). The shell tells GTK before the window
// opens, so WebKit reports prefers-color-scheme to the page (the front
// end's app.css follows it) and the window's background matches the page
// from the first frame instead of a dark rectangle under a light UI.

// Theme is the window's colour scheme.
type Theme string

// The schemes.
const (
	ThemeLight Theme = "light"
	ThemeDark  Theme = "dark"
)

// portalTimeout bounds the portal's answer: the window waits for it.
const portalTimeout = 300 * time.Millisecond

// portalPrefersDark asks the desktop portal for the user's colour scheme
// (1 prefer dark, 2 prefer light, 0 no preference); ok is false when no
// portal answers on the session bus in time or it has no preference.
func portalPrefersDark(ctx context.Context) (dark, ok bool) {
	ctx, cancel := context.WithTimeout(ctx, portalTimeout)
	defer cancel()
	conn, err := dialSession(ctx)
	if err != nil {
		return false, false
	}
	defer conn.Close()
	var v dbus.Variant
	obj := conn.Object("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop")
	// FlagNoAutoStart: a portal that is not running is not started for
	// this (activating it left its document portal's fusermount3 behind
	// the app); the desktop's own session starts one where there is one.
	err = obj.CallWithContext(ctx, "org.freedesktop.portal.Settings.Read", dbus.FlagNoAutoStart, "org.freedesktop.appearance", "color-scheme").Store(&v)
	if err != nil {
		return false, false
	}
	return colorScheme(v)
}

// colorScheme reads the portal's color-scheme value: a uint32, which
// Settings.Read wraps in one variant more than the spec says.
func colorScheme(v dbus.Variant) (dark, ok bool) {
	for range 3 {
		switch x := v.Value().(type) {
		case dbus.Variant:
			v = x
			continue
		case uint32:
			return x == 1, x == 1 || x == 2
		}
		return false, false
	}
	return false, false
}
