package wake

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waitPoke waits for one poke on ch or fails after a generous deadline
// (a deadline for a hang, not a speed threshold).
func waitPoke(t *testing.T, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal("the poke never arrived")
	}
}

func listen(t *testing.T, path string) (*Listener, chan struct{}) {
	t.Helper()
	pokes := make(chan struct{}, 16)
	l, err := Listen(path, func() { pokes <- struct{}{} })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, pokes
}

// A poke from another socket reaches the listener; Close removes the
// socket file, after which a poke reports that no runner listens.
func TestPokeReachesListener(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wake.sock")
	l, pokes := listen(t, path)
	if err := Poke(path); err != nil {
		t.Fatal(err)
	}
	waitPoke(t, pokes)
	if err := Poke(path); err != nil {
		t.Fatal(err)
	}
	waitPoke(t, pokes)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("socket file left after Close: %v", err)
	}
	if err := Poke(path); !errors.Is(err, ErrNoListener) {
		t.Fatalf("poke without a listener: %v, want ErrNoListener", err)
	}
}

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

// Signal wakes every waiter that took the channel before Fire, and only
// those.
func TestSignal(t *testing.T) {
	var s Signal
	a, b := s.Next(), s.Next()
	s.Fire()
	waitPoke(t, a)
	waitPoke(t, b)
	c := s.Next()
	select {
	case <-c:
		t.Fatal("a channel taken after Fire is already closed")
	default:
	}
	s.Fire()
	waitPoke(t, c)
	var nilSig *Signal
	nilSig.Fire()
	if nilSig.Next() != nil {
		t.Fatal("a nil Signal's channel is not nil")
	}
}
