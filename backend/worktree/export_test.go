package worktree

import (
	"bytes"
	"context"
)

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

// StateOf is what saving leftovers reads of a worktree: from the files
// (ok false when they cannot tell) or from git.
func StateOf(m *Manager, dir string, files bool) (st [4]string, ok bool, err error) {
	var s wtState
	if files {
		s, ok = m.stateFiles(context.Background(), dir)
	} else {
		s, err = m.worktreeState(context.Background(), dir)
		ok = err == nil
	}
	return [4]string{s.index, s.commonDir, s.head, s.headTree}, ok, err
}
