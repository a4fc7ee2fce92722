package runner

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// holdInChild gives a copy of l's descriptor to a child that keeps it for
// d, as a process forked while l was held keeps it until its exec.
func holdInChild(t *testing.T, l *Lock, d time.Duration) {
	t.Helper()
	c := exec.Command("sleep", strconv.FormatFloat(d.Seconds(), 'f', 3, 64))
	c.ExtraFiles = append(c.ExtraFiles, l.f)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
}

// A lock released while a child still has its descriptor (as a process
// forked at that moment has) is free at once, not held by "another process".
func TestLockReleasedWhileAChildHoldsItsDescriptor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runner.lock")
	l, err := AcquireLock(path)
	if err != nil {
		t.Fatal(err)
	}
	holdInChild(t, l, time.Minute)
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	l2, err := AcquireLock(path)
	if err != nil {
		t.Fatalf("acquire after release: %v", err)
	}
	defer l2.Release()
	if pid := HolderPID(path); pid <= 0 {
		t.Fatalf("the new holder wrote no pid: %d", pid)
	}
}
