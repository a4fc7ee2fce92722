package worktree

import "bytes"

// KeptFiles is how many listed files a snapshot kept instead of writing
// its trees (0: it has none or has its trees).
func KeptFiles(s Snapshot) int {
	if s.kept == nil {
		return 0
	}
	return len(s.kept.files)
}

// SameSnapshot reports whether two snapshots record the same state (their
// kept files compared by content, stat data aside).
func SameSnapshot(a, b Snapshot) bool {
	ka, kb := a.kept, b.kept
	a.kept, b.kept, a.Probe, b.Probe = nil, nil, "", ""
	if a != b || (ka == nil) != (kb == nil) {
		return false
	}
	if ka == nil {
		return true
	}
	if ka.records != kb.records || len(ka.files) != len(kb.files) {
		return false
	}
	for i, f := range ka.files {
		g := kb.files[i]
		if f.path != g.path || f.mode != g.mode || f.untracked != g.untracked || !bytes.Equal(f.data, g.data) {
			return false
		}
	}
	return true
}
