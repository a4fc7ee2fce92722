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

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// snapshot is a worktree's tracked and untracked (not ignored) files as a
// tree, written through a temporary index in the worktree's own git
// directory, plus a copy of its real index: what restore puts back.
type snapshot struct {
	git   *gitx.Git
	top   string // the worktree's top level
	index string // its real index
	tmp   string // the temporary index
	orig  string // the copy of the real index ("" when it had none)
	tree  string
	// baseTree is the tree of the base asked for ("" when none).
	baseTree string
}

// snapshotSuffix names the temporary files in the worktree's git directory.
const snapshotSuffix = "boof-verify"

// takeSnapshot records dir's worktree, and the tree of base when it is not
// "" (in the same git call). The temporary index starts as a copy of the
// real one, so `git add -A` hashes only what changed.
func takeSnapshot(ctx context.Context, g *gitx.Git, dir, base string) (*snapshot, error) {
	args := []string{"rev-parse", "--path-format=absolute", "--show-toplevel",
		"--git-path", "index", "--git-path", snapshotSuffix + ".index"}
	want := 3
	if base != "" {
		args = append(args, "--verify", "--end-of-options", base+"^{tree}")
		want = 4
	}
	out, err := g.Run(ctx, dir, args...)
	if err != nil {
		if base != "" {
			return nil, fmt.Errorf("snapshot (base %s): %w", base, err)
		}
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != want {
		return nil, fmt.Errorf("snapshot: unexpected rev-parse output %q", out)
	}
	s := &snapshot{git: g, top: lines[0], index: lines[1], tmp: lines[2]}
	if base != "" {
		s.baseTree = lines[3]
	}
	if b, err := os.ReadFile(s.index); err == nil {
		s.orig = s.tmp + ".orig"
		if err := os.WriteFile(s.orig, b, 0o600); err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
		if err := os.WriteFile(s.tmp, b, 0o600); err != nil {
			s.remove()
			return nil, fmt.Errorf("snapshot: %w", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	if s.tree, err = s.write(ctx); err != nil {
		s.remove()
		return nil, err
	}
	return s, nil
}

// write adds every file of the worktree to the temporary index and
// returns its tree.
func (s *snapshot) write(ctx context.Context) (string, error) {
	env := []string{"GIT_INDEX_FILE=" + s.tmp}
	if _, err := s.git.RunEnv(ctx, s.top, env, "-c", "core.hooksPath=/dev/null", "add", "-A", "--", "."); err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	tree, err := s.git.WriteTree(ctx, s.top, env)
	if err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	return tree, nil
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

// diff lists the paths whose files differ from the snapshot now.
func (s *snapshot) diff(ctx context.Context) ([]change, error) {
	if err := s.resetTmp(); err != nil {
		return nil, err
	}
	now, err := s.write(ctx)
	if err != nil || now == s.tree {
		return nil, err
	}
	out, err := s.git.Run(ctx, s.top, "diff-tree", "-r", "-z", "--no-renames", "--name-status", s.tree, now)
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

// resetTmp starts the temporary index again from the real one, so a file
// the command made while it had removed a .gitignore is not kept in it
// once the .gitignore is back.
func (s *snapshot) resetTmp() error {
	if s.orig == "" {
		if err := os.Remove(s.tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("restore: %w", err)
		}
		return nil
	}
	b, err := os.ReadFile(s.orig)
	if err == nil {
		err = os.WriteFile(s.tmp, b, 0o600)
	}
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	return nil
}

// checkout writes paths from the snapshot's tree into the worktree.
func (s *snapshot) checkout(ctx context.Context, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	tmp := s.tmp + ".back"
	defer os.Remove(tmp)
	env := []string{"GIT_INDEX_FILE=" + tmp}
	if _, err := s.git.RunEnv(ctx, s.top, env, "read-tree", s.tree); err != nil {
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
	want, err := os.ReadFile(s.orig)
	if err != nil {
		return fmt.Errorf("restore index: %w", err)
	}
	if have, err := os.ReadFile(s.index); err == nil && bytes.Equal(have, want) {
		return nil
	}
	tmp := s.index + "." + snapshotSuffix
	if err := os.WriteFile(tmp, want, 0o644); err != nil {
		return fmt.Errorf("restore index: %w", err)
	}
	if err := os.Rename(tmp, s.index); err != nil {
		os.Remove(tmp)
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
	if s.orig != "" {
		os.Remove(s.orig)
	}
}
