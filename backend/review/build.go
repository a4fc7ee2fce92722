package review

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/tmpdir"
)

// build makes the accept's result commit without touching any ref or the
// user's working trees, and returns its sha.
func (s *Service) build(ctx context.Context, r Request, p Plan) (string, error) {
	msg := message(r, p.Strategy)
	switch p.Strategy {
	case StrategyMerge:
		return s.commit(ctx, r.Repo, p.Tree, msg, p.TargetSHA, p.Head)
	case StrategySquash:
		return s.commit(ctx, r.Repo, p.Tree, msg, p.TargetSHA)
	case StrategyRebase:
		if p.FastForward {
			return p.Head, nil
		}
		return s.rebase(ctx, r.Repo, p)
	}
	return "", fmt.Errorf("%w: %q", ErrBadStrategy, p.Strategy)
}

func (s *Service) commit(ctx context.Context, repo, tree, msg string, parents ...string) (string, error) {
	sha, err := s.commitTree(ctx, repo, gitx.Commit{Tree: tree, Parents: parents, Message: msg})
	if err != nil {
		return "", fmt.Errorf("build accept commit: %w", err)
	}
	return sha, nil
}

// noHooks are config overrides for git commands run in our own temporary
// worktree: no user hooks, no signing prompts, no refs moved as a side
// effect of the rebase.
var noHooks = []string{"-c", "core.hooksPath=/dev/null", "-c", "commit.gpgSign=false", "-c", "rebase.updateRefs=false"}

// rebase replays p.Commits onto the target in a temporary detached
// worktree (never the user's), and returns the last replayed commit. A
// conflicting replay returns *ConflictError. The temporary worktree is
// always removed; it lives in the journal's work directory, so one a crash
// left is removed by the next reconciliation.
func (s *Service) rebase(ctx context.Context, repo string, p Plan) (sha string, err error) {
	tmp, err := s.tempWork(repo)
	if err != nil {
		return "", fmt.Errorf("rebase: %w", err)
	}
	dir := filepath.Join(tmp, "wt")
	defer func() {
		cctx, cancel := cleanupCtx(ctx)
		defer cancel()
		_, _ = s.git.Run(cctx, repo, "worktree", "remove", "--force", dir)
		_ = os.RemoveAll(tmp)
		_, _ = s.git.Run(cctx, repo, "worktree", "prune")
	}()
	if _, err := s.git.Run(ctx, repo, append(noHooks, "worktree", "add", "--quiet", "--detach", dir, p.Head)...); err != nil {
		return "", fmt.Errorf("rebase: temporary worktree: %w", err)
	}
	committer := s.committerEnv(ctx, repo)
	args := append(append([]string{}, noHooks...), "rebase", "--quiet", "--no-autosquash", "--no-autostash", "--empty=drop", p.TargetSHA)
	if _, err := s.git.RunEnv(ctx, dir, committer, args...); err != nil {
		conflicts, _ := s.git.Run(ctx, dir, "diff", "--name-only", "--diff-filter=U", "-z")
		_, _ = s.git.Run(ctx, dir, append(noHooks, "rebase", "--abort")...)
		if files := gitx.SplitNUL(conflicts); len(files) > 0 {
			return "", &ConflictError{Files: files}
		}
		return "", fmt.Errorf("rebase: %w", err)
	}
	head, err := s.git.ResolveCommit(ctx, dir, "HEAD")
	if err != nil {
		return "", fmt.Errorf("rebase: %w", err)
	}
	if head == p.TargetSHA {
		return "", fmt.Errorf("every task commit is already on %s: %w", p.TargetRef, ErrNothingToAccept)
	}
	return head, nil
}

// tempWork makes a directory for a temporary worktree of repo: in the
// journal's work directory (with the repository noted, for the clean-up
// after a crash), or in the system's temporary directory without one.
func (s *Service) tempWork(repo string) (string, error) {
	if s.journal == nil {
		return tmpdir.Make("boof-accept-")
	}
	if err := os.MkdirAll(s.journal.workDir(), 0o700); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(s.journal.workDir(), "rebase-")
	if err != nil {
		return "", err
	}
	if abs, err := filepath.Abs(repo); err == nil {
		repo = abs
	}
	if err := os.WriteFile(filepath.Join(tmp, "repo"), []byte(repo+"\n"), 0o600); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	return tmp, nil
}

// Build makes the dry run of r and, when it is clean, builds the accept's
// result commit (merge, squash or rebase of the task branch onto the
// target's current tip) without moving any ref or touching any working
// tree. It returns the plan and the built commit; the caller verifies it
// and lands it with MoveRef (a compare-and-swap from Plan.TargetSHA), as
// the merge queue does. Errors are those of Plan, and *ConflictError for a
// rebase that conflicts.
func (s *Service) Build(ctx context.Context, r Request) (Plan, string, error) {
	common, unlock, err := s.lockRepo(ctx, r.Repo)
	if err != nil {
		return Plan{}, "", fmt.Errorf("build: %w", err)
	}
	defer unlock()
	p, err := s.plan(ctx, r, common, false)
	if err != nil {
		return p, "", err
	}
	sha, err := s.build(ctx, r, p)
	return p, sha, err
}
