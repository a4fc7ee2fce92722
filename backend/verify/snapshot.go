package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// snapshot is a worktree's tracked and untracked (not ignored) files as a
// temporary index in the worktree's own git directory (its tree written
// when it is needed), plus a copy of its real index: what restore puts
// back.
type snapshot struct {
	git   *gitx.Git
	top   string // the worktree's top level
	index string // its real index
	tmp   string // the temporary index
	orig  string // the copy of the real index ("" when it had none)
	// snap is the temporary index as the snapshot left it: every file
	// added and hashed, so a later `git add -A` started from it writes
	// nothing when nothing changed.
	snap string
	// tree is snap's tree ("" until written: treeOf).
	tree string
	// baseTree is the tree of the base asked for ("" when none).
	baseTree string
}

// snapshotSuffix names the temporary files in the worktree's git directory.
const snapshotSuffix = "boof-verify"

// takeSnapshot records dir's worktree, and the tree of base when it is not
// "" (then the snapshot's tree is written too, to compare). The temporary
// index starts as a copy of the real one, so `git add -A` hashes only what
// changed. Where the worktree's files are is remembered (locate), so a
// run without a base costs one git command here.
func takeSnapshot(ctx context.Context, g *gitx.Git, dir, base string) (*snapshot, error) {
	w, err := locate(ctx, g, dir, base)
	if err != nil {
		return nil, err
	}
	s := &snapshot{git: g, top: w.top, index: w.index, tmp: w.tmp, snap: w.tmp + ".snap", baseTree: w.baseTree}
	if _, err := os.Stat(s.index); err == nil {
		s.orig = s.tmp + ".orig"
		if err := copyFile(s.index, s.orig); err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
		if err := copyFile(s.index, s.tmp); err != nil {
			s.remove()
			return nil, fmt.Errorf("snapshot: %w", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("snapshot: %w", err)
	} else {
		os.Remove(s.tmp)
	}
	if err := s.add(ctx); err != nil {
		s.remove()
		return nil, err
	}
	if base != "" {
		// write-tree stores the tree in the index (cache-tree): done
		// before the copy, so the copy is what later adds start from.
		if s.tree, err = s.git.WriteTree(ctx, s.top, []string{"GIT_INDEX_FILE=" + s.tmp}); err != nil {
			s.remove()
			return nil, fmt.Errorf("snapshot: %w", err)
		}
	}
	if err := copyFile(s.tmp, s.snap); err != nil {
		s.remove()
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return s, nil
}

// add adds every file of the worktree to the temporary index.
func (s *snapshot) add(ctx context.Context) error {
	env := []string{"GIT_INDEX_FILE=" + s.tmp}
	if _, err := s.git.RunEnv(ctx, s.top, env, "-c", "core.hooksPath=/dev/null", "add", "-A", "--", "."); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	return nil
}

// treeOf returns the snapshot's tree, writing it from a copy of snap the
// first time.
func (s *snapshot) treeOf(ctx context.Context) (string, error) {
	if s.tree != "" {
		return s.tree, nil
	}
	tmp := s.snap + ".tree"
	defer os.Remove(tmp)
	if err := copyFile(s.snap, tmp); err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	tree, err := s.git.WriteTree(ctx, s.top, []string{"GIT_INDEX_FILE=" + tmp})
	if err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	s.tree = tree
	return tree, nil
}

// copyFile copies an index file with its modification time: git takes an
// entry whose file is as new as the index file itself as "racily clean"
// and compares its content, so a copy made later must not look newer than
// the index git wrote — or a file rewritten with the same size in the same
// second as the snapshot would pass as unchanged.
func copyFile(from, to string) error {
	fi, err := os.Stat(from)
	if err != nil {
		return err
	}
	b, err := userfile.ReadKept(from)
	if err != nil {
		return err
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		return err
	}
	return os.Chtimes(to, fi.ModTime(), fi.ModTime())
}

// restore puts back every tracked and untracked file the command changed,
// added or deleted since the snapshot (ignored files stay as they are) and
// the real index; it returns the paths it put back. Changed and deleted
// files come back first, so a .gitignore the command deleted ignores again
// before the files it added are looked for.
func (s *snapshot) restore(ctx context.Context) ([]string, error) {
	if err := s.restoreIndex(); err != nil {
		return nil, err
	}
	changed := map[string]bool{}
	for pass := 0; pass < 2; pass++ {
		diff, err := s.diff(ctx)
		if err != nil || len(diff) == 0 {
			return keys(changed), err
		}
		var back []string
		for _, d := range diff {
			changed[d.path] = true
			full := filepath.Join(s.top, filepath.FromSlash(d.path))
			switch {
			case d.status != "A":
				if fi, err := os.Lstat(full); err == nil && fi.IsDir() {
					_ = os.RemoveAll(full)
				}
				back = append(back, d.path)
			case pass == 1:
				if err := os.RemoveAll(full); err != nil {
					return keys(changed), fmt.Errorf("restore: remove %s: %w", d.path, err)
				}
				s.pruneEmpty(filepath.Dir(full))
			}
		}
		if err := s.checkout(ctx, back); err != nil {
			return keys(changed), err
		}
	}
	return keys(changed), nil
}

// change is one path that differs from the snapshot: A added, D deleted,
// M modified, T changed type.
type change struct{ status, path string }

// diff lists the paths whose files differ from the snapshot now. It adds
// the worktree to a fresh copy of the snapshot's index (not the one an
// earlier pass left, so a file made while a .gitignore was gone is not
// kept once the .gitignore is back): when git wrote nothing
// (the index is byte for byte the snapshot's), nothing changed and one git
// command was enough; otherwise both trees are written and compared.
func (s *snapshot) diff(ctx context.Context) ([]change, error) {
	if err := copyFile(s.snap, s.tmp); err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	if err := s.add(ctx); err != nil {
		return nil, err
	}
	if same, err := sameFiles(s.snap, s.tmp); err != nil || same {
		return nil, err
	}
	then, err := s.treeOf(ctx)
	if err != nil {
		return nil, err
	}
	now, err := s.git.WriteTree(ctx, s.top, []string{"GIT_INDEX_FILE=" + s.tmp})
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	if now == then {
		return nil, nil
	}
	out, err := s.git.Run(ctx, s.top, "diff-tree", "-r", "-z", "--no-renames", "--name-status", then, now)
	if err != nil {
		return nil, fmt.Errorf("restore: %w", err)
	}
	f := gitx.SplitNUL(out)
	var cs []change
	for i := 0; i+1 < len(f); i += 2 {
		cs = append(cs, change{status: f[i], path: f[i+1]})
	}
	return cs, nil
}

// sameFiles reports whether files a and b hold the same bytes.
func sameFiles(a, b string) (bool, error) {
	x, err := userfile.ReadKept(a)
	if err != nil {
		return false, fmt.Errorf("restore: %w", err)
	}
	y, err := userfile.ReadKept(b)
	if err != nil {
		return false, fmt.Errorf("restore: %w", err)
	}
	return bytes.Equal(x, y), nil
}

// checkout writes paths from the snapshot's tree into the worktree.
func (s *snapshot) checkout(ctx context.Context, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	tmp := s.tmp + ".back"
	defer os.Remove(tmp)
	env := []string{"GIT_INDEX_FILE=" + tmp}
	tree, err := s.treeOf(ctx)
	if err != nil {
		return err
	}
	if _, err := s.git.RunEnv(ctx, s.top, env, "read-tree", tree); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	in := []byte(strings.Join(paths, "\x00") + "\x00")
	if _, err := s.git.Exec(ctx, gitx.Cmd{Dir: s.top, Env: env, Input: in,
		Args: []string{"checkout-index", "-f", "-z", "--stdin"}}); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return nil
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// restoreIndex puts the real index back when the command changed it.
func (s *snapshot) restoreIndex() error {
	if s.orig == "" {
		return nil
	}
	want, err := userfile.ReadKept(s.orig)
	if err != nil {
		return fmt.Errorf("restore index: %w", err)
	}
	if have, err := userfile.ReadKept(s.index); err == nil && bytes.Equal(have, want) {
		return nil
	}
	if err := atomicfile.WriteFile(s.index, want, 0o644); err != nil {
		return fmt.Errorf("restore index: %w", err)
	}
	return nil
}

// pruneEmpty removes the empty directories a removed file leaves, up to
// the top level.
func (s *snapshot) pruneEmpty(dir string) {
	for dir != s.top && strings.HasPrefix(dir, s.top+string(filepath.Separator)) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}

// remove deletes the temporary files.
func (s *snapshot) remove() {
	os.Remove(s.tmp)
	os.Remove(s.snap)
	if s.orig != "" {
		os.Remove(s.orig)
	}
}
