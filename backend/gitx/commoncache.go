package gitx

import (
	"os"
	"path/filepath"
	"sync"
)

// commonCache remembers CommonDir's answers. An entry holds while the
// directory asked about, its .git (or its absence) and the common
// directory are the same files (by device and inode) as when git answered
// and the common directory still has a HEAD: a directory or repository
// removed and made again, or a `git init` in the directory, sends the
// question to git again. What a cached answer would miss is a repository
// made between the directory and its top; every command run there still
// goes through git, which then works on what it finds.
type commonCache struct {
	mu sync.Mutex
	m  map[string]commonEntry
}

type commonEntry struct {
	common string
	stamp  [3]os.FileInfo // dir, dir/.git (nil when absent), common
}

// maxCommons bounds the cache; it is emptied when full (tasks come and go).
const maxCommons = 1024

func stamp(dir, common string) ([3]os.FileInfo, bool) {
	var s [3]os.FileInfo
	var err error
	if s[0], err = os.Stat(dir); err != nil {
		return s, false
	}
	s[1], _ = os.Lstat(filepath.Join(dir, ".git"))
	if s[2], err = os.Stat(common); err != nil {
		return s, false
	}
	if _, err := os.Stat(filepath.Join(common, "HEAD")); err != nil {
		return s, false
	}
	return s, true
}

func same(a, b [3]os.FileInfo) bool {
	for i := range a {
		if (a[i] == nil) != (b[i] == nil) || a[i] != nil && !os.SameFile(a[i], b[i]) {
			return false
		}
	}
	return true
}

func (c *commonCache) get(dir string) (string, bool) {
	c.mu.Lock()
	e, ok := c.m[dir]
	c.mu.Unlock()
	if !ok {
		return "", false
	}
	s, ok := stamp(dir, e.common)
	if !ok || !same(s, e.stamp) {
		return "", false
	}
	return e.common, true
}

func (c *commonCache) put(dir, common string) {
	s, ok := stamp(dir, common)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxCommons {
		c.m = map[string]commonEntry{}
	}
	c.m[dir] = commonEntry{common: common, stamp: s}
}
