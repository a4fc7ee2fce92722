package app

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// startSessionBus starts a private dbus-daemon for the test and points this
// process's session bus at it.
func startSessionBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Fatalf("dbus-daemon is required (apt package dbus): %v", err)
	}
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("read bus address: %v", err)
	}
	addr := strings.TrimSpace(line)
	os.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	return addr
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

func (w *watcher) registered() (sender, path string, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.items) == 0 {
		return "", "", false
	}
	sender, path, _ = strings.Cut(w.items[0], " ")
	return sender, path, true
}

func startWatcher(t *testing.T, addr string) (*dbus.Conn, *watcher) {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
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

// menuItems returns label → id for every item of the tray menu.
func menuItems(t *testing.T, conn *dbus.Conn, sender string) map[string]int32 {
	t.Helper()
	var rev uint32
	var root menuLayout
	obj := conn.Object(sender, "/StatusNotifierMenu")
	if err := obj.Call("com.canonical.dbusmenu.GetLayout", 0, int32(0), int32(-1), []string{}).Store(&rev, &root); err != nil {
		t.Fatalf("GetLayout: %v", err)
	}
	items := map[string]int32{}
	for _, c := range root.Children {
		var child menuLayout
		if err := dbus.Store([]any{c.Value()}, &child); err != nil {
			t.Fatalf("decode menu child: %v", err)
		}
		if l, ok := child.Props["label"]; ok {
			items[l.Value().(string)] = child.ID
		}
	}
	return items
}

func clickMenu(t *testing.T, conn *dbus.Conn, sender string, id int32) {
	t.Helper()
	obj := conn.Object(sender, "/StatusNotifierMenu")
	call := obj.Call("com.canonical.dbusmenu.Event", 0, id, "clicked", dbus.MakeVariant(""), uint32(time.Now().Unix()))
	if call.Err != nil {
		t.Fatalf("Event(%d): %v", id, call.Err)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
