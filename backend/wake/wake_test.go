package wake

import (
	"errors"
	"os"
	"path/filepath"
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

// A poke reaches the listener; Close leaves no file at the path (it
// removes the socket file; on Windows none is made), after which a poke
// reports that no runner listens.
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
