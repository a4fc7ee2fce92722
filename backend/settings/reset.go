package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// Reset moves the settings file aside, to <path>.<time>.bak next to it,
// so the defaults apply: the way out of a file no reader accepts (not
// JSON, larger than MaxFileSize, a named pipe or a folder), which is kept
// as it was, never deleted. A settings.json that is a symbolic link is
// moved as the link (its target is left alone). It returns the path the
// file was moved to, "" when there was no file, or a wrapped error (then
// nothing moved).
func (f *File) Reset(now time.Time) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	unlock, err := f.lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	if _, err := os.Lstat(f.path); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("reset settings: %w", err)
	}
	stamp := f.path + "." + now.Format("20060102-150405")
	aside := stamp + ".bak"
	for n := 2; ; n++ {
		if _, err := os.Lstat(aside); err != nil {
			break // free (or unreadable: the rename says why)
		}
		aside = fmt.Sprintf("%s-%d.bak", stamp, n)
	}
	if err := os.Rename(f.path, aside); err != nil {
		return "", fmt.Errorf("reset settings: %w", err)
	}
	return aside, nil
}
