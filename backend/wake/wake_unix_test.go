//go:build unix

package wake

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A stale socket (a runner that crashed: the file stays, nobody reads it)
// makes Poke report ErrNoListener, and the next runner's Listen replaces it.
func TestStaleSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wake.sock")
	dead, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	dead.Close() // a unixgram socket leaves its file behind, as a crash does
	if _, err := os.Lstat(path); err != nil {
		t.Fatalf("no stale file to test with: %v", err)
	}
	if err := Poke(path); !errors.Is(err, ErrNoListener) {
		t.Fatalf("poke on a stale socket: %v, want ErrNoListener", err)
	}
	_, pokes := listen(t, path)
	if err := Poke(path); err != nil {
		t.Fatal(err)
	}
	waitPoke(t, pokes)
}

// Something that is not a socket where the socket belongs is refused and
// left as it is.
func TestListenRefusesNonSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wake.sock")
	if err := os.WriteFile(path, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(path, func() {}); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Fatalf("Listen over a regular file: %v", err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "mine" {
		t.Fatalf("the file was changed: %q %v", b, err)
	}
	if err := Poke(path); err == nil {
		t.Fatal("poke on a regular file succeeded")
	}
}

// A data root deeper than a socket path may be still gets a working
// socket (an abstract name derived from the path), and a second path gets
// another one.
func TestLongPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 60))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "wake.sock")
	_, pokes := listen(t, path)
	other := filepath.Join(dir, "other.sock")
	if err := Poke(other); !errors.Is(err, ErrNoListener) {
		t.Fatalf("poke of another long path: %v, want ErrNoListener", err)
	}
	if err := Poke(path); err != nil {
		t.Fatal(err)
	}
	waitPoke(t, pokes)
}
