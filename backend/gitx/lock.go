package gitx

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
)

// LockRepo takes the in-process lock of the repository that dir belongs
// to (keyed by its common git directory, so a repository and all its linked
// worktrees share one lock) and returns the function that releases it.
// Hold it around operations that write the main repository's index, refs or
// worktree registry. It waits for the lock until ctx ends and then returns
// ctx's error; a dir outside any repository gives an error matching
// ErrNotARepo.
func (g *Git) LockRepo(ctx context.Context, dir string) (unlock func(), err error) {
	common, err := g.CommonDir(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("lock repo: %w", err)
	}
	return g.lockKey(ctx, common)
}

// LockCommonDir is LockRepo for a caller that already knows the common git
// directory (RepoInfo.CommonDir); it runs no git command.
func (g *Git) LockCommonDir(ctx context.Context, commonDir string) (unlock func(), err error) {
	return g.lockKey(ctx, commonDir)
}

func (g *Git) lockKey(ctx context.Context, key string) (func(), error) {
	key = filepath.Clean(key)
	g.mu.Lock()
	ch, ok := g.locks[key]
	if !ok {
		ch = make(chan struct{}, 1)
		g.locks[key] = ch
	}
	g.mu.Unlock()
	var once sync.Once
	unlock := func() { once.Do(func() { <-ch }) }
	select {
	case ch <- struct{}{}:
		return unlock, nil
	default:
	}
	select {
	case ch <- struct{}{}:
		return unlock, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("lock repo: %w", ctx.Err())
	}
}
