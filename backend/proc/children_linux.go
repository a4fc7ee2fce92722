package proc

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
)

// scanChildren reads only the children of this process's main thread,
// from /proc/<self>/task/<self>/children: the orphans it adopted as a
// subreaper are there (the kernel gives an orphan to the reaper's first
// live thread, the main thread of a Go program), which is what reaping
// after a SIGCHLD needs, without reading every process of the machine
// (that cost a whole /proc scan per git call the app ran). Children that
// other threads started are not listed; they are waited for by whoever
// started them. ok is false when the kernel does not offer the file
// (CONFIG_PROC_CHILDREN); the caller then scans the whole table.
func scanChildren(self int) (*procTable, bool) {
	pid := strconv.Itoa(self)
	b, err := os.ReadFile(filepath.Join("/proc", pid, "task", pid, "children"))
	if err != nil {
		return nil, false
	}
	t := &procTable{byPid: map[int]int{}, children: map[int][]int{}}
	var buf [512]byte
	for _, field := range bytes.Fields(b) {
		child, err := strconv.Atoi(string(field))
		if err != nil {
			continue
		}
		p, ok := readStatBuf(child, buf[:])
		if !ok || p.ppid != self {
			continue
		}
		t.byPid[child] = len(t.all)
		t.children[self] = append(t.children[self], len(t.all))
		t.all = append(t.all, p)
	}
	return t, true
}
