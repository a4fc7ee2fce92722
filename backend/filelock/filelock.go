// Package filelock is the advisory whole-file lock every data-root lock
// uses (the runner lock, the instance lock, the settings and journal
// locks): flock on Linux and macOS, LockFileEx on Windows. The OS drops
// it when its holder dies, so a crash never leaves it stale.
package filelock

import (
	"errors"
	"os"
)

// ErrLocked is TryLock's error when another open file holds the lock.
var ErrLocked = errors.New("file is locked by another process")

// TryLock takes the exclusive lock on f without waiting. It returns
// ErrLocked when another holder has it, or the OS error.
func TryLock(f *os.File) error { return tryLock(f) }

// Lock takes the exclusive lock on f, waiting for it.
func Lock(f *os.File) error { return lock(f) }

// Unlock releases a lock taken on f. Callers unlock before they close:
// on Linux closing drops a flock only once no process has the
// descriptor, and a process forked at that moment keeps it until its exec.
func Unlock(f *os.File) error { return unlock(f) }
