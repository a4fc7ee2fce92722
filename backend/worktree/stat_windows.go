package worktree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// statStamp describes path's stat data. Windows has no change time that
// a rename or a chmod moves, so ok is always false: the quick guard never
// proves a file unchanged here and the full comparison runs.
func statStamp(path string, _ time.Time) (string, bool) {
	st, err := os.Lstat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return "missing", true
		}
		return "", false
	}
	return fmt.Sprintf("%d %o %d", st.Size(), st.Mode(), st.ModTime().UnixNano()), false
}
