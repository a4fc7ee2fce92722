package shell

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/godbus/dbus/v5"
)

// The desktop's session bus: the tray (StatusNotifierItem), its host
// (StatusNotifierWatcher) and notifications (org.freedesktop.Notifications)
// are all reached through it.

// ErrNoSessionBus is matched by the error for a session bus that cannot be
// reached (StartTray); notifications and TrayHostAvailable treat it as "no
// desktop", not as a failure.
var ErrNoSessionBus = errors.New("no session bus")

// dialSession opens a private, authenticated connection to the session bus
// named by DBUS_SESSION_BUS_ADDRESS (or the user's standard socket). It
// never launches a bus. The connection outlives ctx (godbus would close a
// connection bound to a context when it ends); ctx only bounds the dial.
func dialSession(ctx context.Context) (*dbus.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	conn, err := dbus.SessionBusPrivateNoAutoStartup()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSessionBus, err)
	}
	if err := conn.Auth(nil); err != nil {
		conn.Close()
		return nil, fmt.Errorf("session bus auth: %w", err)
	}
	if err := conn.Hello(); err != nil {
		conn.Close()
		return nil, fmt.Errorf("session bus hello: %w", err)
	}
	return conn, nil
}

// TrayHostAvailable reports whether the desktop has a tray to show the
// app's icon in; the shell's platform file says how to tell.
func TrayHostAvailable(ctx context.Context) bool {
	if ctx == nil {
		ctx = context.Background()
	}
	return trayHostAvailable(ctx)
}

// sessionTrayHost reports whether a StatusNotifierWatcher (the tray host
// of KDE, GNOME's AppIndicator extension, waybar, …) owns its name on the
// session bus. No session bus means false.
func sessionTrayHost(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	conn, err := dialSession(ctx)
	if err != nil {
		return false
	}
	defer conn.Close()
	var has bool
	err = conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, watcherName).Store(&has)
	return err == nil && has
}

// watcherName is the well-known name of the tray host.
const watcherName = "org.kde.StatusNotifierWatcher"
