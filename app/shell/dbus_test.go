package shell

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// busConfig is a session bus with no service activation, so a test sees only
// the services it starts itself.
const busConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// startSessionBus starts a private dbus-daemon for the test and points this
// process's session bus at it (restored when the test ends). Call it before
// anything in the process connects to a session bus.
func startSessionBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Fatalf("dbus-daemon is required (apt package dbus): %v", err)
	}
	conf := filepath.Join(t.TempDir(), "bus.conf")
	if err := os.WriteFile(conf, []byte(busConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "dbus-daemon", "--config-file="+conf, "--nofork", "--print-address=1")
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	type result struct {
		line string
		err  error
	}
	got := make(chan result, 1)
	go func() {
		line, err := bufio.NewReader(out).ReadString('\n')
		got <- result{line, err}
	}()
	var r result
	select {
	case r = <-got:
	case <-time.After(60 * time.Second):
		t.Fatal("dbus-daemon printed no address")
	}
	if r.err != nil {
		t.Fatalf("read bus address: %v", r.err)
	}
	addr := strings.TrimSpace(r.line)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	return addr
}

// connectBus opens a test's own connection to the bus at addr.
func connectBus(t *testing.T, addr string) *dbus.Conn {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// watcher is a minimal org.kde.StatusNotifierWatcher: it records who
// registered an item.
type watcher struct {
	mu    sync.Mutex
	items []string // "sender path"
}

func (w *watcher) RegisterStatusNotifierItem(sender dbus.Sender, path string) *dbus.Error {
	w.mu.Lock()
	w.items = append(w.items, string(sender)+" "+path)
	w.mu.Unlock()
	return nil
}

func (w *watcher) RegisterStatusNotifierHost(sender dbus.Sender, name string) *dbus.Error {
	return nil
}

func (w *watcher) registered() (sender, path string, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.items) == 0 {
		return "", "", false
	}
	sender, path, _ = strings.Cut(w.items[0], " ")
	return sender, path, true
}

// startWatcher owns the tray host's name on the bus at addr; closing the
// returned connection takes the host away.
func startWatcher(t *testing.T, addr string) (*dbus.Conn, *watcher) {
	t.Helper()
	conn := connectBus(t, addr)
	w := &watcher{}
	if err := conn.Export(w, "/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher"); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName("org.kde.StatusNotifierWatcher", dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own watcher name: %v %v", reply, err)
	}
	return conn, w
}

// menuLayout is one dbusmenu node: (id, properties, children).
type menuLayout struct {
	ID       int32
	Props    map[string]dbus.Variant
	Children []dbus.Variant
}

// menuEntry is one item of the tray menu as a tray host sees it.
type menuEntry struct {
	ID      int32
	Label   string
	Enabled bool
	// Sub lists the visible items of its submenu.
	Sub []menuEntry
}

// menuPath reads the item's Menu property, as a tray host does.
func menuPath(t *testing.T, conn *dbus.Conn, sender string, item dbus.ObjectPath) dbus.ObjectPath {
	t.Helper()
	v, err := conn.Object(sender, item).GetProperty("org.kde.StatusNotifierItem.Menu")
	if err != nil {
		t.Fatalf("get Menu property: %v", err)
	}
	p, ok := v.Value().(dbus.ObjectPath)
	if !ok {
		t.Fatalf("Menu property is %T", v.Value())
	}
	return p
}

// readMenu returns the visible labelled items of the menu at path, in
// order, with their submenus (separators and hidden items left out), as a
// tray host shows them.
func readMenu(t *testing.T, conn *dbus.Conn, sender string, path dbus.ObjectPath) []menuEntry {
	t.Helper()
	var rev uint32
	var root menuLayout
	obj := conn.Object(sender, path)
	if err := obj.Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{}).Store(&rev, &root); err != nil {
		t.Fatalf("GetLayout: %v", err)
	}
	return menuChildren(t, root.Children)
}

func menuChildren(t *testing.T, children []dbus.Variant) []menuEntry {
	t.Helper()
	var items []menuEntry
	for _, c := range children {
		var child menuLayout
		if err := dbus.Store([]any{c.Value()}, &child); err != nil {
			t.Fatalf("decode menu child: %v", err)
		}
		l, ok := child.Props["label"]
		if !ok {
			continue
		}
		if v, ok := child.Props["visible"]; ok && !v.Value().(bool) {
			continue
		}
		e := menuEntry{ID: child.ID, Label: l.Value().(string), Enabled: true}
		if en, ok := child.Props["enabled"]; ok {
			e.Enabled = en.Value().(bool)
		}
		e.Sub = menuChildren(t, child.Children)
		items = append(items, e)
	}
	return items
}

func clickMenu(t *testing.T, conn *dbus.Conn, sender string, path dbus.ObjectPath, id int32) {
	t.Helper()
	obj := conn.Object(sender, path)
	call := obj.Call("com.canonical.dbusmenu.Event", 0, id, "clicked", dbus.MakeVariant(""), uint32(time.Now().Unix()))
	if call.Err != nil {
		t.Fatalf("Event(%d): %v", id, call.Err)
	}
}

// waitFor polls cond until it holds; the deadline only guards against a
// hang, it is not a speed requirement.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
