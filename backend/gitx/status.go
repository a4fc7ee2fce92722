package gitx

import (
	"context"
	"fmt"
)

// Change is one entry of `git status --porcelain=v1 -z`.
type Change struct {
	// X and Y are the index and working-tree status letters ('?' for
	// untracked, ' ' for unchanged).
	X, Y byte
	// Path is the file (the new name of a rename).
	Path string
	// OrigPath is the old name of a rename or copy, else "".
	OrigPath string
}

// Status lists the uncommitted changes of the worktree at dir, untracked
// files included and ignored files excluded; an empty list means clean.
// Errors are *Error (ErrNotARepo, ErrNoDir).
func (g *Git) Status(ctx context.Context, dir string) ([]Change, error) {
	out, err := g.Run(ctx, dir, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=none")
	if err != nil {
		return nil, fmt.Errorf("status: %w", err)
	}
	f := SplitNUL(out)
	var list []Change
	for i := 0; i < len(f); i++ {
		rec := f[i]
		if len(rec) < 4 || rec[2] != ' ' {
			return nil, fmt.Errorf("status: unexpected record %q", rec)
		}
		c := Change{X: rec[0], Y: rec[1], Path: rec[3:]}
		if c.X == 'R' || c.X == 'C' {
			if i+1 >= len(f) {
				return nil, fmt.Errorf("status: rename record without source %q", rec)
			}
			i++
			c.OrigPath = f[i]
		}
		list = append(list, c)
	}
	return list, nil
}
