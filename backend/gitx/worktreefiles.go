package gitx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/userfile"
)

// CheckedOut lists the branches checked out in the worktrees of the
// repository whose common git directory is common (dir is a directory
// inside it), the main worktree first. Only Path, Branch, Bare and
// Detached are set. It reads the worktree registry of
// gitrepository-layout(5) (HEAD of the main repository, worktrees/<id>/HEAD
// and worktrees/<id>/gitdir) the way `git worktree list` does, without
// running git; a layout it does not read itself (a bare or separate git
// directory, the reftable ref store, a HEAD it cannot parse) is answered
// by `git worktree list` (Worktrees).
func (g *Git) CheckedOut(ctx context.Context, dir, common string) ([]WorktreeEntry, error) {
	if list, ok := readWorktrees(common); ok {
		return list, nil
	}
	return g.Worktrees(ctx, dir)
}

// readWorktrees is CheckedOut without git; ok is false when the layout
// needs git to be read.
func readWorktrees(common string) ([]WorktreeEntry, bool) {
	if common == "" || filepath.Base(common) != ".git" {
		return nil, false // bare or --separate-git-dir: git knows where the worktree is
	}
	if _, err := os.Stat(filepath.Join(common, "reftable")); err == nil || !plainConfig(common) {
		return nil, false
	}
	top := filepath.Dir(common)
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real // git prints the main worktree's real path
	}
	main, ok := readHead(filepath.Join(common, "HEAD"))
	if !ok {
		return nil, false
	}
	main.Path = top
	list := []WorktreeEntry{main}
	ents, err := os.ReadDir(filepath.Join(common, "worktrees"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, false
	}
	for _, e := range ents {
		admin := filepath.Join(common, "worktrees", e.Name())
		gd, err := userfile.ReadKept(filepath.Join(admin, "gitdir"))
		if err != nil {
			continue // git skips an entry without gitdir as well
		}
		w, ok := readHead(filepath.Join(admin, "HEAD"))
		if !ok {
			return nil, false
		}
		p := strings.TrimRight(string(gd), "\n")
		if !filepath.IsAbs(p) {
			p = filepath.Join(admin, p)
		}
		w.Path = strings.TrimSuffix(filepath.Clean(p), string(filepath.Separator)+".git")
		list = append(list, w)
	}
	return list, true
}

// readHead reads a HEAD file: a symbolic ref gives Branch, a commit id
// Detached; ok is false for anything else.
func readHead(path string) (WorktreeEntry, bool) {
	b, err := userfile.ReadKept(path)
	if err != nil {
		return WorktreeEntry{}, false
	}
	s := strings.TrimSpace(string(b))
	if ref, ok := strings.CutPrefix(s, "ref: "); ok {
		if !strings.HasPrefix(ref, "refs/") {
			return WorktreeEntry{}, false
		}
		return WorktreeEntry{Branch: ref}, true
	}
	if isHex(s) && (len(s) == 40 || len(s) == 64) {
		return WorktreeEntry{Detached: true}, true
	}
	return WorktreeEntry{}, false
}

func isHex(s string) bool {
	for _, r := range s {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}

// plainConfig reports whether the repository's config leaves the main
// worktree where the layout puts it: not bare, no core.worktree. It errs
// towards false (then git is asked).
func plainConfig(common string) bool {
	b, err := userfile.ReadKept(filepath.Join(common, "config"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(strings.ToLower(string(b)), "\n") {
		l := strings.Join(strings.Fields(line), "")
		if strings.HasPrefix(l, "bare=true") || strings.HasPrefix(l, "bare=yes") || strings.HasPrefix(l, "bare=on") ||
			strings.HasPrefix(l, "bare=1") || l == "bare" || strings.HasPrefix(l, "worktree=") || strings.HasPrefix(l, "[include") {
			return false
		}
	}
	return true
}
