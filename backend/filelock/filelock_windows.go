package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// The lock covers one byte far past any content, so that a holder's file
// (the runner lock holds the holder's pid) stays readable by others:
// Windows byte-range locks are mandatory.
const (
	lockOffsetHigh = 0x7fffffff
	lockOffsetLow  = 0xffffffff
)

func lockFile(f *os.File, flags uint32) error {
	ol := windows.Overlapped{Offset: lockOffsetLow, OffsetHigh: lockOffsetHigh}
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return ErrLocked
	}
	return err
}

func tryLock(f *os.File) error {
	return lockFile(f, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY)
}

func lock(f *os.File) error { return lockFile(f, windows.LOCKFILE_EXCLUSIVE_LOCK) }

func unlock(f *os.File) error {
	ol := windows.Overlapped{Offset: lockOffsetLow, OffsetHigh: lockOffsetHigh}
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}
