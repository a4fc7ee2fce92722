package app

import "sync"

// recent keeps the last few values computed for keys that name immutable
// content (a diff between two commits): the diff view pages through one
// file in many calls, and each would otherwise run git again. The newest
// first; the oldest goes when more than max are kept.
type recent[V any] struct {
	mu      sync.Mutex
	max     int
	entries []recentEntry[V]
}

type recentEntry[V any] struct {
	key string
	v   V
}

// get returns key's value and moves it to the front.
func (c *recent[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.key == key {
			c.entries = append(append([]recentEntry[V]{e}, c.entries[:i]...), c.entries[i+1:]...)
			return e.v, true
		}
	}
	var zero V
	return zero, false
}

// put keeps v under key in front, dropping the oldest past max.
func (c *recent[V]) put(key string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.key == key {
			c.entries = append(c.entries[:i], c.entries[i+1:]...)
			break
		}
	}
	c.entries = append([]recentEntry[V]{{key: key, v: v}}, c.entries...)
	if len(c.entries) > c.max {
		c.entries = c.entries[:c.max]
	}
}
