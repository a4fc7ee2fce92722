//go:build unix

package worktree

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"golang.org/x/sys/unix"
)

// statStamp describes path's stat data; ok is false when it cannot prove
// the file unchanged later (its change time is too recent or has no
// sub-second part).
func statStamp(path string, t0 time.Time) (string, bool) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, unix.ENOTDIR) {
			return "missing", true
		}
		return "", false
	}
	ctime := time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	ok := st.Ctim.Nsec != 0 && ctime.Before(t0.Add(-fresh))
	return fmt.Sprintf("%d %d %o %d.%d %d.%d", st.Ino, st.Size, st.Mode, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec), ok
}
