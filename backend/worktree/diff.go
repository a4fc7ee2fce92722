package worktree

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// ErrBadPath: a file path given to FilePatch is empty, absolute or leaves
// the repository.
var ErrBadPath = errors.New("bad file path")

// DiffSummary holds the --stat totals of a diff.
type DiffSummary struct {
	Files      int `json:"files"`
	Insertions int `json:"insertions"`
	Deletions  int `json:"deletions"`
	// Binary counts the binary files among Files.
	Binary int `json:"binary"`
}

// diffArgs are shared by every diff: stable output whatever the user's
// configuration says (no colour, external diff drivers or textconv).
var diffArgs = []string{"diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-relative", "-M"}

// revArgs returns the revision arguments for a diff of base against head,
// or against the working tree of dir when head is "".
func revArgs(base, head string) ([]string, error) {
	if err := gitx.CheckRev(base); err != nil {
		return nil, fmt.Errorf("base: %w", err)
	}
	if head == "" {
		return []string{"--end-of-options", base}, nil
	}
	if err := gitx.CheckRev(head); err != nil {
		return nil, fmt.Errorf("head: %w", err)
	}
	return []string{"--end-of-options", base, head}, nil
}

// Summary returns the totals of the diff from base to head in repo (head
// "" means repo's working tree). Bad revisions give gitx.ErrBadRev or
// gitx.ErrUnknownRef; other errors are wrapped gitx errors.
func (m *Manager) Summary(ctx context.Context, repo, base, head string) (DiffSummary, error) {
	revs, err := revArgs(base, head)
	if err != nil {
		return DiffSummary{}, fmt.Errorf("diff summary: %w", err)
	}
	args := append(append(append([]string{}, diffArgs...), "--numstat", "-z"), revs...)
	out, err := m.git.Run(ctx, repo, append(args, "--")...)
	if err != nil {
		return DiffSummary{}, fmt.Errorf("diff summary: %w", err)
	}
	stats, err := parseNumstat(gitx.SplitNUL(out))
	if err != nil {
		return DiffSummary{}, fmt.Errorf("diff summary: %w", err)
	}
	var s DiffSummary
	for _, n := range stats {
		s.Files++
		s.Insertions += n.added
		s.Deletions += n.removed
		if n.binary {
			s.Binary++
		}
	}
	return s, nil
}

// Files returns the changed files from base to head in repo (head "" means
// repo's working tree), with status, rename source, modes, binary flag and
// line counts, parsed from -z output so any file name survives. Errors as
// for Summary.
func (m *Manager) Files(ctx context.Context, repo, base, head string) ([]FileChange, error) {
	revs, err := revArgs(base, head)
	if err != nil {
		return nil, fmt.Errorf("diff files: %w", err)
	}
	args := append(append(append([]string{}, diffArgs...), "--raw", "--no-abbrev", "--numstat", "-z"), revs...)
	out, err := m.git.Run(ctx, repo, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("diff files: %w", err)
	}
	files, err := parseRawNumstat(gitx.SplitNUL(out))
	if err != nil {
		return nil, fmt.Errorf("diff files: %w", err)
	}
	return files, nil
}

// FilePatch returns the unified patch of one path from base to head in repo
// (head "" means repo's working tree). The path is taken literally (no
// glob or pathspec magic). A rename shows as delete plus add here; use
// ChangePatch to see it as a rename. An empty, absolute or escaping path
// gives ErrBadPath; other errors as for Summary.
func (m *Manager) FilePatch(ctx context.Context, repo, base, head, path string) (string, error) {
	return m.patch(ctx, repo, base, head, nil, path)
}

// ChangePatch returns the unified patch of one entry of Files, including
// its rename or copy source. Errors as for FilePatch.
func (m *Manager) ChangePatch(ctx context.Context, repo, base, head string, f FileChange) (string, error) {
	return m.ChangePatchWith(ctx, repo, base, head, f, PatchOptions{})
}

// PatchOptions change how a patch is computed.
type PatchOptions struct {
	// IgnoreWhitespace ignores whitespace when comparing lines (git diff -w).
	IgnoreWhitespace bool
}

// ChangePatchWith is ChangePatch with options.
func (m *Manager) ChangePatchWith(ctx context.Context, repo, base, head string, f FileChange, o PatchOptions) (string, error) {
	var extra []string
	if o.IgnoreWhitespace {
		extra = append(extra, "-w")
	}
	if f.OldPath != "" && f.OldPath != f.Path {
		return m.patch(ctx, repo, base, head, extra, f.OldPath, f.Path)
	}
	return m.patch(ctx, repo, base, head, extra, f.Path)
}

func (m *Manager) patch(ctx context.Context, repo, base, head string, extra []string, paths ...string) (string, error) {
	for _, p := range paths {
		if err := checkPath(p); err != nil {
			return "", fmt.Errorf("file patch: %w", err)
		}
	}
	revs, err := revArgs(base, head)
	if err != nil {
		return "", fmt.Errorf("file patch: %w", err)
	}
	args := append(append(append([]string{}, diffArgs...), extra...), "--src-prefix=a/", "--dst-prefix=b/")
	args = append(append(append(args, revs...), "--"), paths...)
	out, err := m.git.RunEnv(ctx, repo, []string{"GIT_LITERAL_PATHSPECS=1"}, args...)
	if err != nil {
		return "", fmt.Errorf("file patch: %w", err)
	}
	return string(out), nil
}

func checkPath(p string) error {
	if p == "" || strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") ||
		strings.Contains(p, "/../") || strings.HasSuffix(p, "/..") || strings.ContainsRune(p, 0) {
		return fmt.Errorf("path %q: %w", p, ErrBadPath)
	}
	return nil
}

// UntrackedBeside lists the untracked files of the worktree at dir
// (Untracked) while f runs: f does another read of the worktree, and the
// two git processes run side by side.
func (m *Manager) UntrackedBeside(ctx context.Context, dir string, f func()) ([]string, error) {
	var untracked []string
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		untracked, err = m.Untracked(ctx, dir)
	}()
	f()
	<-done
	return untracked, err
}

// Untracked lists the untracked, not ignored files of the worktree at dir,
// relative to its top. A nested git repository shows as one entry ending
// in "/". Errors are wrapped gitx errors: gitx.ErrNoDir when dir is gone,
// gitx.ErrNotARepo when it is not in a repository.
func (m *Manager) Untracked(ctx context.Context, dir string) ([]string, error) {
	out, err := m.git.Run(ctx, dir, "ls-files", "--others", "--exclude-standard", "--full-name", "-z", "--", ":/")
	if err != nil {
		return nil, fmt.Errorf("untracked files: %w", err)
	}
	return gitx.SplitNUL(out), nil
}
