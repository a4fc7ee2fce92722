package forge

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/godbus/dbus/v5"
)

// The Secret Service (org.freedesktop.secrets on the session bus:
// GNOME Keyring, KWallet, KeePassXC) as a small client: store, read and
// delete one secret per forge host in the default collection. It never
// launches a bus and never shows a prompt: a locked collection, or none,
// is ErrKeyringUnavailable, and the caller falls back to the token file.

// ErrKeyringUnavailable: no Secret Service runs, or it cannot be used
// without a prompt (a locked or missing default collection).
var ErrKeyringUnavailable = errors.New("no usable Secret Service")

// keyringTimeout bounds one keyring operation.
const keyringTimeout = 5 * time.Second

const (
	ssName       = "org.freedesktop.secrets"
	ssPath       = dbus.ObjectPath("/org/freedesktop/secrets")
	ssService    = "org.freedesktop.Secret.Service"
	ssItem       = "org.freedesktop.Secret.Item"
	ssCollection = "org.freedesktop.Secret.Collection"
	// keyringApp is the "application" attribute of Boof Runner's items.
	keyringApp = "boof-runner"
)

// ssSecret is the Secret Service's Secret struct.
type ssSecret struct {
	Session     dbus.ObjectPath
	Parameters  []byte
	Value       []byte
	ContentType string
}

// Keyring is the session bus's Secret Service.
type Keyring struct {
	// Address is the bus address ("" = DBUS_SESSION_BUS_ADDRESS or the
	// user's standard socket; never an auto-launched bus).
	Address string
}

// session is one connection with an open "plain" session (the bus is
// local to the user; the Secret Service's encrypted sessions add nothing
// over a Unix socket).
type session struct {
	conn *dbus.Conn
	path dbus.ObjectPath
}

func (k Keyring) open(ctx context.Context) (*session, error) {
	var conn *dbus.Conn
	var err error
	if k.Address != "" {
		conn, err = dbus.Connect(k.Address)
	} else {
		conn, err = dbus.SessionBusPrivateNoAutoStartup()
		if err == nil {
			if err = conn.Auth(nil); err == nil {
				err = conn.Hello()
			}
		}
	}
	if err != nil {
		if conn != nil {
			conn.Close()
		}
		return nil, fmt.Errorf("%w: %v", ErrKeyringUnavailable, err)
	}
	var out dbus.Variant
	var path dbus.ObjectPath
	err = conn.Object(ssName, ssPath).CallWithContext(ctx, ssService+".OpenSession", dbus.FlagNoAutoStart, "plain", dbus.MakeVariant("")).Store(&out, &path)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("%w: %v", ErrKeyringUnavailable, err)
	}
	return &session{conn: conn, path: path}, nil
}

func (s *session) close() {
	_ = s.conn.Object(ssName, s.path).Call("org.freedesktop.Secret.Session.Close", dbus.FlagNoAutoStart).Err
	s.conn.Close()
}

// collection returns the default collection, unlocked without a prompt.
func (s *session) collection(ctx context.Context) (dbus.ObjectPath, error) {
	var coll dbus.ObjectPath
	if err := s.conn.Object(ssName, ssPath).CallWithContext(ctx, ssService+".ReadAlias", dbus.FlagNoAutoStart, "default").Store(&coll); err != nil {
		return "", fmt.Errorf("%w: %v", ErrKeyringUnavailable, err)
	}
	if coll == "/" {
		return "", fmt.Errorf("%w: no default collection", ErrKeyringUnavailable)
	}
	var unlocked []dbus.ObjectPath
	var prompt dbus.ObjectPath
	if err := s.conn.Object(ssName, ssPath).CallWithContext(ctx, ssService+".Unlock", dbus.FlagNoAutoStart, []dbus.ObjectPath{coll}).Store(&unlocked, &prompt); err != nil {
		return "", fmt.Errorf("%w: %v", ErrKeyringUnavailable, err)
	}
	if len(unlocked) == 0 {
		return "", fmt.Errorf("%w: the default collection is locked", ErrKeyringUnavailable)
	}
	return coll, nil
}

func attrs(host string) map[string]string {
	return map[string]string{"application": keyringApp, "service": "boof-runner-forge", "host": host}
}

// Set stores token for host, replacing an earlier one. Errors match
// ErrKeyringUnavailable when no Secret Service can take it.
func (k Keyring) Set(ctx context.Context, host, token string) error {
	ctx, cancel := context.WithTimeout(ctx, keyringTimeout)
	defer cancel()
	s, err := k.open(ctx)
	if err != nil {
		return err
	}
	defer s.close()
	coll, err := s.collection(ctx)
	if err != nil {
		return err
	}
	props := map[string]dbus.Variant{
		"org.freedesktop.Secret.Item.Label":      dbus.MakeVariant("Boof Runner token for " + host),
		"org.freedesktop.Secret.Item.Attributes": dbus.MakeVariant(attrs(host)),
	}
	secret := ssSecret{Session: s.path, Value: []byte(token), ContentType: "text/plain"}
	var item, prompt dbus.ObjectPath
	if err := s.conn.Object(ssName, coll).CallWithContext(ctx, ssCollection+".CreateItem", dbus.FlagNoAutoStart, props, secret, true).Store(&item, &prompt); err != nil {
		return fmt.Errorf("%w: %v", ErrKeyringUnavailable, err)
	}
	if item == "/" {
		return fmt.Errorf("%w: storing needs a prompt", ErrKeyringUnavailable)
	}
	return nil
}

// Get returns host's token, "" when the keyring holds none. Errors match
// ErrKeyringUnavailable when no Secret Service can be read.
func (k Keyring) Get(ctx context.Context, host string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, keyringTimeout)
	defer cancel()
	s, err := k.open(ctx)
	if err != nil {
		return "", err
	}
	defer s.close()
	items, err := s.search(ctx, host)
	if err != nil || len(items) == 0 {
		return "", err
	}
	var secret ssSecret
	if err := s.conn.Object(ssName, items[0]).CallWithContext(ctx, ssItem+".GetSecret", dbus.FlagNoAutoStart, s.path).Store(&secret); err != nil {
		return "", fmt.Errorf("%w: %v", ErrKeyringUnavailable, err)
	}
	return string(secret.Value), nil
}

// Delete removes host's token and says whether it held one; none is not
// an error.
func (k Keyring) Delete(ctx context.Context, host string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, keyringTimeout)
	defer cancel()
	s, err := k.open(ctx)
	if err != nil {
		return false, err
	}
	defer s.close()
	items, err := s.search(ctx, host)
	if err != nil {
		return false, err
	}
	for _, it := range items {
		var prompt dbus.ObjectPath
		if err := s.conn.Object(ssName, it).CallWithContext(ctx, ssItem+".Delete", dbus.FlagNoAutoStart).Store(&prompt); err != nil {
			return false, fmt.Errorf("%w: %v", ErrKeyringUnavailable, err)
		}
	}
	return len(items) > 0, nil
}

// search returns host's items, unlocking the collection when they are
// locked (without a prompt).
func (s *session) search(ctx context.Context, host string) ([]dbus.ObjectPath, error) {
	var unlocked, locked []dbus.ObjectPath
	if err := s.conn.Object(ssName, ssPath).CallWithContext(ctx, ssService+".SearchItems", dbus.FlagNoAutoStart, attrs(host)).Store(&unlocked, &locked); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrKeyringUnavailable, err)
	}
	if len(locked) > 0 {
		var now []dbus.ObjectPath
		var prompt dbus.ObjectPath
		if err := s.conn.Object(ssName, ssPath).CallWithContext(ctx, ssService+".Unlock", dbus.FlagNoAutoStart, locked).Store(&now, &prompt); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrKeyringUnavailable, err)
		}
		unlocked = append(unlocked, now...)
	}
	return unlocked, nil
}
