package runner

import (
	"errors"

	"golang.org/x/sys/unix"
)

// livePids returns the pids that still name a process.
func livePids(pids []int) []int {
	var out []int
	seen := map[int]bool{}
	for _, p := range pids {
		if p <= 1 || seen[p] {
			continue
		}
		seen[p] = true
		if err := unix.Kill(p, 0); err == nil || errors.Is(err, unix.EPERM) {
			out = append(out, p)
		}
	}
	return out
}
