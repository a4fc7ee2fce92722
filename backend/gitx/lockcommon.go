package gitx

import (
	"context"
	"fmt"
)

// LockRepoCommon is LockRepo that also returns the repository's absolute
// common git directory, which callers often need next and which LockRepo
// has just looked up. Errors are those of LockRepo.
func (g *Git) LockRepoCommon(ctx context.Context, dir string) (common string, unlock func(), err error) {
	common, err = g.CommonDir(ctx, dir)
	if err != nil {
		return "", nil, fmt.Errorf("lock repo: %w", err)
	}
	unlock, err = g.lockKey(ctx, common)
	if err != nil {
		return "", nil, err
	}
	return common, unlock, nil
}
