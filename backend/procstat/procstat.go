// Package procstat measures the resources of a running step's process tree
// (memory and CPU) for the running-task panel, through gopsutil.
package procstat

import (
	"context"

	"github.com/shirou/gopsutil/v4/process"
)

// Stats is the summed usage of a set of processes.
type Stats struct {
	// Processes counts those still alive.
	Processes int `json:"processes"`
	// RSSBytes is their summed resident memory.
	RSSBytes uint64 `json:"rss_bytes"`
	// CPUSeconds is their summed user+system CPU time so far.
	CPUSeconds float64 `json:"cpu_seconds"`
}

// Tree sums the usage of pids (a step's recorded process tree). Processes
// that are gone are skipped; it never fails.
func Tree(ctx context.Context, pids []int) Stats {
	var s Stats
	seen := map[int]bool{}
	for _, pid := range pids {
		if pid <= 0 || seen[pid] {
			continue
		}
		seen[pid] = true
		p, err := process.NewProcessWithContext(ctx, int32(pid))
		if err != nil {
			continue
		}
		if st, err := p.StatusWithContext(ctx); err == nil && len(st) > 0 && st[0] == process.Zombie {
			continue
		}
		mem, err := p.MemoryInfoWithContext(ctx)
		if err != nil {
			continue
		}
		s.Processes++
		s.RSSBytes += mem.RSS
		if t, err := p.TimesWithContext(ctx); err == nil {
			s.CPUSeconds += t.User + t.System
		}
	}
	return s
}
