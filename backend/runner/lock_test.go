package runner

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// holdInChild gives a copy of l's descriptor to a child that keeps it for
// d, as a process forked while l was held keeps it until its exec.
func holdInChild(t *testing.T, l *Lock, d time.Duration) *exec.Cmd {
	t.Helper()
	c := exec.Command("sleep", strconv.FormatFloat(d.Seconds(), 'f', 3, 64))
	c.ExtraFiles = append(c.ExtraFiles, l.f)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
	return c
}

// A lock released while a child still has its descriptor is taken once the
// child lets go, instead of being reported held by "another process".
func TestLockReleasedWhileAChildHoldsItsDescriptor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runner.lock")
	l, err := AcquireLock(path)
	if err != nil {
		t.Fatal(err)
	}
	c := holdInChild(t, l, 50*time.Millisecond)
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	l2, err := AcquireLock(path)
	if err != nil {
		t.Fatalf("acquire after release: %v", err)
	}
	defer l2.Release()
	if c.ProcessState == nil {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	if pid := HolderPID(path); pid <= 0 {
		t.Fatalf("the new holder wrote no pid: %d", pid)
	}
}

// A lock kept by a process that holds it without naming itself is still
// reported held once the wait is over, with no holder named.
func TestLockHeldWithoutANameIsReportedAfterTheWait(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runner.lock")
	l, err := AcquireLock(path)
	if err != nil {
		t.Fatal(err)
	}
	holdInChild(t, l, time.Minute)
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	_, err = AcquireLock(path)
	var le *LockedError
	if !errors.As(err, &le) || le.PID != 0 {
		t.Fatalf("acquire while a child holds the lock: %v", err)
	}
}
