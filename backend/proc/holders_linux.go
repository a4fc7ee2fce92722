package proc

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
)

// Holders returns the pids of the live processes that have path open (a
// lock file, say), found through /proc/<pid>/fd. Processes whose
// descriptors cannot be read (another user's) are not listed.
func Holders(path string) ([]int, error) {
	want, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("holders of %s: %w", path, err)
	}
	d, err := os.Open("/proc")
	if err != nil {
		return nil, fmt.Errorf("holders of %s: %w", path, err)
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, fmt.Errorf("holders of %s: %w", path, err)
	}
	var out []int
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		fds, err := os.ReadDir("/proc/" + n + "/fd")
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if target, err := os.Readlink("/proc/" + n + "/fd/" + fd.Name()); err == nil && target == want {
				out = append(out, pid)
				break
			}
		}
	}
	sort.Ints(out)
	return out, nil
}
