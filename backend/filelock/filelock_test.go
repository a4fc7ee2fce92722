package filelock_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/backend/filelock"
)

// Two opens of one file in one process contend like two processes do
// (flock and LockFileEx both lock per open file), so the lock's whole
// life is visible here: held, refused, released, taken again.
func TestLockContendsAndReleases(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	a, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := filelock.TryLock(a); err != nil {
		t.Fatalf("first lock: %v", err)
	}
	if err := filelock.TryLock(b); !errors.Is(err, filelock.ErrLocked) {
		t.Fatalf("second lock while held: %v, want ErrLocked", err)
	}
	// The holder's content stays readable by others (the runner lock's pid).
	if _, err := a.WriteAt([]byte("123\n"), 0); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != "123\n" {
		t.Fatalf("read while locked: %q, %v", got, err)
	}
	if err := filelock.Unlock(a); err != nil {
		t.Fatalf("unlock: %v", err)
	}
	if err := filelock.TryLock(b); err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	if err := filelock.Unlock(b); err != nil {
		t.Fatal(err)
	}
	if err := filelock.Lock(a); err != nil {
		t.Fatalf("blocking lock of a free file: %v", err)
	}
}
