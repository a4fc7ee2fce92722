package gitx

import (
	"context"
	"fmt"
	"strings"
)

// WorktreeEntry is one record of `git worktree list --porcelain -z`.
type WorktreeEntry struct {
	// Path is the worktree's absolute directory.
	Path string
	// Head is the checked-out commit (all zeros in an empty repository).
	Head string
	// Branch is the full ref checked out ("" when detached or bare).
	Branch string
	// Bare marks the bare main repository; Detached a detached HEAD;
	// Locked a worktree locked against pruning and removal; Prunable one
	// whose directory is gone.
	Bare, Detached, Locked, Prunable bool
}

// Worktrees lists the worktrees registered in dir's repository, the main
// one first. Errors are *Error.
func (g *Git) Worktrees(ctx context.Context, dir string) ([]WorktreeEntry, error) {
	out, err := g.Run(ctx, dir, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return nil, fmt.Errorf("list worktrees: %w", err)
	}
	var list []WorktreeEntry
	var cur *WorktreeEntry
	for _, f := range SplitNUL(out) {
		if f == "" {
			cur = nil
			continue
		}
		key, val, _ := strings.Cut(f, " ")
		if key == "worktree" {
			list = append(list, WorktreeEntry{Path: val})
			cur = &list[len(list)-1]
			continue
		}
		if cur == nil {
			continue
		}
		switch key {
		case "HEAD":
			cur.Head = val
		case "branch":
			cur.Branch = val
		case "bare":
			cur.Bare = true
		case "detached":
			cur.Detached = true
		case "locked":
			cur.Locked = true
		case "prunable":
			cur.Prunable = true
		}
	}
	return list, nil
}
