package review

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// findCheckout sets p.Checkout to the worktree where the target is checked
// out (a registered worktree whose directory is gone does not count) and,
// when withDirty, p.Dirty to its uncommitted changes to tracked files or,
// when it has none, to the untracked files the merged tree would overwrite.
func (s *Service) findCheckout(ctx context.Context, repo string, p *Plan, withDirty bool) error {
	dir, err := s.checkoutOf(ctx, repo, p.TargetRef)
	if err != nil || dir == "" {
		return err
	}
	p.Checkout = dir
	if !withDirty {
		return nil
	}
	if p.Dirty, err = s.dirty(ctx, dir); err != nil || len(p.Dirty) > 0 || p.Tree == "" {
		return err
	}
	// Untracked files the accept would overwrite stand in the way too.
	p.Dirty, err = s.collisions(ctx, dir, p.TargetSHA, p.Tree)
	return err
}

// checkoutOf returns the directory of the worktree that has ref checked
// out, or "". It reads the worktree registry without running git where
// gitx can (CheckedOut); the common directory is gitx's cached answer.
func (s *Service) checkoutOf(ctx context.Context, repo, ref string) (string, error) {
	common, err := s.git.CommonDir(ctx, repo)
	if err != nil {
		return "", fmt.Errorf("find target checkout: %w", err)
	}
	wts, err := s.git.CheckedOut(ctx, repo, common)
	if err != nil {
		return "", fmt.Errorf("find target checkout: %w", err)
	}
	for _, w := range wts {
		if w.Bare || w.Branch != ref {
			continue
		}
		if _, err := os.Stat(w.Path); errors.Is(err, os.ErrNotExist) {
			continue
		}
		return w.Path, nil
	}
	return "", nil
}

// dirty lists the paths with staged or unstaged changes to tracked files
// in the checkout at dir (untracked files are checked by collisions).
func (s *Service) dirty(ctx context.Context, dir string) ([]string, error) {
	out, err := s.git.Run(ctx, dir, "status", "--porcelain=v1", "-z", "--untracked-files=no", "--ignore-submodules=none")
	if err != nil {
		return nil, fmt.Errorf("check target checkout: %w", err)
	}
	var files []string
	fields := gitx.SplitNUL(out)
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 {
			continue
		}
		files = append(files, f[3:])
		if f[0] == 'R' || f[0] == 'C' {
			i++ // the rename or copy source follows
		}
	}
	return files, nil
}

// collisions lists the paths that moving the checkout at dir (its top
// directory) from commit
// from to commit to would create but that already exist on disk as
// untracked (or ignored) files.
func (s *Service) collisions(ctx context.Context, dir, from, to string) ([]string, error) {
	out, err := s.git.Run(ctx, dir, "diff", "--name-only", "--no-renames", "--diff-filter=A", "-z", from, to, "--")
	if err != nil {
		return nil, fmt.Errorf("check target checkout: %w", err)
	}
	var files []string
	for _, p := range gitx.SplitNUL(out) {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p))); err == nil {
			files = append(files, p)
		}
	}
	return files, nil
}

// checkClean returns *DirtyError when the checkout at dir cannot move from
// from to to without losing anything: tracked changes, colliding untracked
// files, or anything else `read-tree -m -u --dry-run` refuses.
func (s *Service) checkClean(ctx context.Context, dir, from, to string) error {
	files, err := s.dirty(ctx, dir)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		if files, err = s.collisions(ctx, dir, from, to); err != nil {
			return err
		}
	}
	if len(files) > 0 {
		return &DirtyError{Dir: dir, Files: files}
	}
	s.refresh(ctx, dir)
	if _, err := s.git.Run(ctx, dir, "read-tree", "-m", "-u", "-n", from, to); err != nil {
		return fmt.Errorf("check target checkout %s: %w", dir, err)
	}
	return nil
}

// moveCheckout updates the index and files of the checkout at dir from
// commit from to commit to. read-tree checks every path before writing
// any, so a refusal leaves the checkout as it was.
func (s *Service) moveCheckout(ctx context.Context, dir, from, to string) error {
	if _, err := s.git.Run(ctx, dir, "read-tree", "-m", "-u", from, to); err != nil {
		return fmt.Errorf("update checkout %s: %w", dir, err)
	}
	return nil
}

// refresh updates the stat information in the checkout's index so that
// read-tree does not take a touched but unchanged file for a modified one.
// A file that really changed is found by dirty, so failures are ignored.
func (s *Service) refresh(ctx context.Context, dir string) {
	_, _ = s.git.Run(ctx, dir, "update-index", "-q", "--refresh")
}

// inProgress returns an error wrapping ErrCheckedOut when ref is being
// rebased in one of the repository's worktrees (git detaches HEAD for the
// rebase and moves the branch when it finishes, so the branch must not
// move under it). common is the repository's common git directory; the
// state files are those of gitrepository-layout(5).
func inProgress(common, ref string) error {
	dirs := []string{common}
	if linked, err := filepath.Glob(filepath.Join(common, "worktrees", "*")); err == nil {
		dirs = append(dirs, linked...)
	}
	for _, d := range dirs {
		for _, state := range []string{"rebase-merge", "rebase-apply"} {
			b, err := userfile.ReadKept(filepath.Join(d, state, "head-name"))
			if err == nil && strings.TrimSpace(string(b)) == ref {
				where := filepath.Dir(common)
				if d != common {
					if gd, err := userfile.ReadKept(filepath.Join(d, "gitdir")); err == nil {
						where = filepath.Dir(strings.TrimSpace(string(gd)))
					}
				}
				return fmt.Errorf("%s is being rebased in %s (finish or abort that rebase first): %w", ref, where, ErrCheckedOut)
			}
		}
	}
	return nil
}
