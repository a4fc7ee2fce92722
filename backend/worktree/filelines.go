package worktree

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// MaxFileLinesBytes is the largest file FileLines reads.
const MaxFileLinesBytes = 64 << 20

// FileAtError is a file FileLines cannot read at a commit: it is not
// there (Missing), or it is larger than MaxFileLinesBytes (Size).
type FileAtError struct {
	Path, Rev string
	Missing   bool
	Size      int64
}

// Error names the file and the commit.
func (e *FileAtError) Error() string {
	if e.Missing {
		return fmt.Sprintf("%q is not in commit %s", e.Path, e.Rev)
	}
	return fmt.Sprintf("%q is %d bytes at %s, more than %d", e.Path, e.Size, e.Rev, MaxFileLinesBytes)
}

// FileLines returns lines from through to (1-based, inclusive; to 0 or
// past the end means the last line) of the file at path in commit rev,
// without their newlines, and how many lines the file has: the unchanged
// lines between two hunks that the Review screen expands. A range past
// the end gives no lines. Errors: ErrBadPath, gitx.ErrBadRev for a bad
// revision, *FileAtError, wrapped gitx errors.
func (m *Manager) FileLines(ctx context.Context, repo, rev, path string, from, to int) ([]string, int, error) {
	if err := checkPath(path); err != nil || strings.HasPrefix(path, "./") {
		return nil, 0, fmt.Errorf("file lines: %w", ErrBadPath)
	}
	if err := gitx.CheckRev(rev); err != nil {
		return nil, 0, fmt.Errorf("file lines: %w", err)
	}
	obj := rev + ":" + path
	out, err := m.git.Run(ctx, repo, "cat-file", "-s", obj)
	if err != nil {
		var ge *gitx.Error
		if errors.As(err, &ge) && ge.ExitCode == 128 {
			return nil, 0, &FileAtError{Path: path, Rev: rev, Missing: true}
		}
		return nil, 0, fmt.Errorf("file lines: %w", err)
	}
	size, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return nil, 0, fmt.Errorf("file lines: size %q: %w", out, errParse)
	}
	if size > MaxFileLinesBytes {
		return nil, 0, &FileAtError{Path: path, Rev: rev, Size: size}
	}
	blob, err := m.git.Run(ctx, repo, "cat-file", "blob", obj)
	if err != nil {
		return nil, 0, fmt.Errorf("file lines: %w", err)
	}
	all := strings.Split(string(blob), "\n")
	if n := len(all); n > 0 && all[n-1] == "" {
		all = all[:n-1] // the last line's newline, or an empty file
	}
	total := len(all)
	from = max(from, 1)
	if to <= 0 || to > total {
		to = total
	}
	if from > to {
		return []string{}, total, nil
	}
	return all[from-1 : to], total, nil
}
