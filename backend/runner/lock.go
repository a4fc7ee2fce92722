package runner

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/boof-runner/boof-runner/backend/filelock"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// ErrLocked is matched (errors.Is) by every *LockedError.
var ErrLocked = errors.New("runner lock held")

// LockedError reports that another process runs the queue of this data root.
type LockedError struct {
	Path string
	// PID is the holder's pid as it wrote it, 0 when unknown.
	PID int
}

// Error names the holder's pid.
func (e *LockedError) Error() string {
	holder := "another process"
	if e.PID > 0 {
		holder = fmt.Sprintf("process %d", e.PID)
	}
	return fmt.Sprintf("another runner is already running the queue of this data root (%s holds %s); "+
		"this process can still add tasks, read them and send stop or inject controls", holder, e.Path)
}

// Unwrap lets errors.Is match ErrLocked.
func (e *LockedError) Unwrap() error { return ErrLocked }

// Lock is the OS file lock (flock) that makes one runner loop per data root.
// The kernel drops it when the holder dies, so a crash never leaves it stale.
type Lock struct {
	f *os.File
}

// AcquireLock takes the runner lock at path without waiting and writes this
// process's pid into the file. It returns a *LockedError when another
// process holds it, or a wrapped error when the file cannot be opened.
func AcquireLock(path string) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("runner lock: %w", err)
	}
	if err := filelock.TryLock(f); err != nil {
		f.Close()
		if errors.Is(err, filelock.ErrLocked) {
			return nil, &LockedError{Path: path, PID: HolderPID(path)}
		}
		return nil, fmt.Errorf("runner lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		_ = f.Sync()
	}
	return &Lock{f: f}, nil
}

// HolderPID reads the pid written by the lock's last holder (0 if none).
func HolderPID(path string) int {
	b, err := userfile.ReadKept(path)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// Release drops the lock. It is safe to call more than once.
//
// It unlocks before it closes: closing drops the flock only once no
// process has the descriptor any more, and a process forked at that moment
// (an exec of this process, such as a git command of another task) keeps
// it until its exec closes it, so a runner started right after would find
// the lock held by "another process".
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	_ = l.f.Truncate(0)
	_ = filelock.Unlock(l.f)
	err := l.f.Close()
	l.f = nil
	return err
}
