// Package tmpdir makes the temporary folders of Boof Runner's processes in
// the system's temporary directory (a temporary git index, a scratch
// worktree) so that those a killed process leaves behind are removed by
// the next process that makes one.
//
// A folder is named <prefix>pid<pid>-<start>-<random>: the pid and start
// time of the process that made it. The first Make of a process removes
// every such folder whose process is gone (its pid is dead or names
// another process now), whatever its prefix, and the folders of the known
// prefixes made before the names carried their owner once they are older
// than Unowned.
package tmpdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/proc"
)

// Families are the prefixes of Boof Runner's temporary folders. An
// unowned folder (made by an earlier version) is removed only under one
// of them.
var Families = []string{"boof-hunks-", "boof-accept-", "boof-drops-", "boof-guard-"}

// Unowned is the age past which an unowned folder of a known prefix is
// taken for a dead process's: each one lives for the seconds of one
// accept or one step's guard.
const Unowned = time.Hour

var (
	owned   = regexp.MustCompile(`^boof-[a-z]+-pid([0-9]+)-([0-9]+)-[0-9]+$`)
	unowned = regexp.MustCompile(`^boof-[a-z]+-[0-9]+$`)

	sweepOnce sync.Once
	selfOnce  sync.Once
	selfTag   string
)

// Make creates a new folder named for prefix (one of Families) and this
// process in the system's temporary directory and returns its path; the
// caller removes it. The first call in a process sweeps the stale folders
// first (Sweep).
func Make(prefix string) (string, error) {
	sweepOnce.Do(func() { Sweep(os.TempDir(), time.Now()) })
	selfOnce.Do(func() {
		pid := os.Getpid()
		if start, ok := proc.StartTimes(pid)[pid]; ok && start > 0 {
			selfTag = fmt.Sprintf("pid%d-%d-", pid, start)
		} // else unowned: removed once older than Unowned
	})
	return os.MkdirTemp("", prefix+selfTag+"*")
}

// Sweep removes from dir the folders of dead owners and the unowned ones
// of Families older than Unowned at now, and returns the paths removed.
// Folders it may not remove (another user's) are left alone.
func Sweep(dir string, now time.Time) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "boof-") || !stale(e, now) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if err := os.RemoveAll(p); err == nil || errors.Is(err, os.ErrNotExist) {
			removed = append(removed, p)
		}
	}
	return removed
}

// stale reports whether the folder e is a dead process's.
func stale(e os.DirEntry, now time.Time) bool {
	name := e.Name()
	if m := owned.FindStringSubmatch(name); m != nil {
		pid, err1 := strconv.Atoi(m[1])
		start, err2 := strconv.ParseUint(m[2], 10, 64)
		if err1 != nil || err2 != nil || pid <= 0 || start == 0 {
			return false
		}
		got, alive := proc.StartTimes(pid)[pid]
		return !alive || got != start
	}
	if !unowned.MatchString(name) || !known(name) {
		return false
	}
	fi, err := e.Info()
	return err == nil && now.Sub(fi.ModTime()) > Unowned
}

func known(name string) bool {
	for _, f := range Families {
		if strings.HasPrefix(name, f) {
			return true
		}
	}
	return false
}
