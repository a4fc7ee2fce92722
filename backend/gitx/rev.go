package gitx

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ResolveCommit resolves rev to a full commit sha in dir's repository with
// `rev-parse --verify --quiet <rev>^{commit}`. A rev refused by CheckRev
// returns an error wrapping ErrBadRev; one that names no commit returns an
// error wrapping ErrUnknownRef; other failures are *Error.
func (g *Git) ResolveCommit(ctx context.Context, dir, rev string) (string, error) {
	if err := CheckRev(rev); err != nil {
		return "", err
	}
	out, err := g.Run(ctx, dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		var ge *Error
		if errors.As(err, &ge) && ge.ExitCode == 1 {
			return "", fmt.Errorf("resolve %q: %w", rev, ErrUnknownRef)
		}
		return "", fmt.Errorf("resolve %q: %w", rev, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// RefSHA returns the object a full ref name (e.g. "refs/heads/x") points
// at, and false when the ref does not exist. Errors are *Error.
func (g *Git) RefSHA(ctx context.Context, dir, ref string) (string, bool, error) {
	if err := CheckRev(ref); err != nil {
		return "", false, err
	}
	out, err := g.Run(ctx, dir, "rev-parse", "--verify", "--quiet", "--end-of-options", ref)
	if err != nil {
		var ge *Error
		if errors.As(err, &ge) && ge.ExitCode == 1 {
			return "", false, nil
		}
		return "", false, fmt.Errorf("read ref %s: %w", ref, err)
	}
	return strings.TrimSpace(string(out)), true, nil
}

// TopLevel returns the absolute top directory of the working tree holding
// dir. Outside a repository the error matches ErrNotARepo.
func (g *Git) TopLevel(ctx context.Context, dir string) (string, error) {
	out, err := g.Run(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("find top level: %w", err)
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// Prefix returns dir's path relative to its working tree's top ("" at the
// top, else ending in "/"). Outside a repository the error matches
// ErrNotARepo.
func (g *Git) Prefix(ctx context.Context, dir string) (string, error) {
	out, err := g.Run(ctx, dir, "rev-parse", "--show-prefix")
	if err != nil {
		return "", fmt.Errorf("find prefix: %w", err)
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// CommonDir returns the absolute common git directory (the main
// repository's .git, also for a linked worktree). Outside a repository the
// error matches ErrNotARepo.
//
// The answer is remembered per dir (see commonCache) while dir and the
// common directory are the same directories on disk as when git was asked
// and the common directory still holds a HEAD; otherwise git is asked again.
func (g *Git) CommonDir(ctx context.Context, dir string) (string, error) {
	if common, ok := g.commons.get(dir); ok {
		return common, nil
	}
	out, err := g.Run(ctx, dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return "", fmt.Errorf("find git dir: %w", err)
	}
	common := filepath.Clean(strings.TrimSuffix(string(out), "\n"))
	g.commons.put(dir, common)
	return common, nil
}

// GitPath returns the absolute path git uses for name inside dir's git
// directory (`rev-parse --git-path`), e.g. "index" of a linked worktree.
// Errors are *Error.
func (g *Git) GitPath(ctx context.Context, dir, name string) (string, error) {
	out, err := g.Run(ctx, dir, "rev-parse", "--path-format=absolute", "--git-path", name)
	if err != nil {
		return "", fmt.Errorf("find git path %s: %w", name, err)
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// RevList runs `git rev-list <args...>` and returns one sha per line.
// Errors are *Error (ErrUnknownRef for a bad revision).
func (g *Git) RevList(ctx context.Context, dir string, args ...string) ([]string, error) {
	out, err := g.Run(ctx, dir, append([]string{"rev-list"}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("rev-list: %w", err)
	}
	return strings.Fields(string(out)), nil
}

// RepoInfo locates a directory inside its repository.
type RepoInfo struct {
	// TopLevel is the absolute top of the working tree holding the directory.
	TopLevel string
	// Prefix is the directory's path below TopLevel ("" or ending in "/").
	Prefix string
	// CommonDir is the absolute common git directory (shared by worktrees).
	CommonDir string
}

// Info returns dir's RepoInfo with one git call. Outside a repository the
// error matches ErrNotARepo; a bare repository gives an *Error.
func (g *Git) Info(ctx context.Context, dir string) (RepoInfo, error) {
	out, err := g.Run(ctx, dir, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir", "--show-prefix")
	if err != nil {
		return RepoInfo{}, fmt.Errorf("locate repository: %w", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	switch {
	case len(lines) == 2: // --show-prefix prints nothing at all at the top
		lines = append(lines, "")
	case len(lines) != 3:
		return RepoInfo{}, fmt.Errorf("locate repository: path with a newline in %q", dir)
	}
	return RepoInfo{TopLevel: lines[0], CommonDir: filepath.Clean(lines[1]), Prefix: lines[2]}, nil
}
