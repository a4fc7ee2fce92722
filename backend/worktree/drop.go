package worktree

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/task"
)

// DropError reports a dropped hunk that does not reverse-apply in the
// task's worktree (the branch moved, or the file has uncommitted changes).
type DropError struct {
	File   string
	Index  int
	Header string
	// Detail is git's reason.
	Detail string
}

func (e *DropError) Error() string {
	return fmt.Sprintf("drop hunk %d of %q (%s): it does not reverse-apply: %s", e.Index, e.File, e.Header, e.Detail)
}

// DropHunk reverts one hunk of the task's diff in its worktree and commits
// that on the task branch, with message: the patch is reverse-applied to
// the index and the files (git apply -R --index), the index is written as
// a tree and committed on HEAD, and the task branch moves with a compare-and-swap.
// A hunk that is already reverted (the patch applies forward instead: a
// fix run resumed after its drops) changes nothing and returns already.
// A hunk that does neither gives a *DropError; other errors are wrapped
// gitx errors. Hooks do not run.
func (m *Manager) DropHunk(ctx context.Context, wt Worktree, d task.HunkDrop, message string) (commit string, already bool, err error) {
	if !wt.Isolated {
		return "", false, fmt.Errorf("drop hunk: %s is not a git worktree", wt.Dir)
	}
	apply := func(args ...string) error {
		_, err := m.git.Exec(ctx, gitx.Cmd{Dir: wt.Dir, Args: append([]string{"apply"}, args...), Input: []byte(d.Patch)})
		return err
	}
	if err := apply("--check", "-R", "--index"); err != nil {
		if apply("--check", "--index") == nil {
			return "", true, nil
		}
		return "", false, &DropError{File: d.File, Index: d.Index, Header: d.Header, Detail: gitDetail(err)}
	}
	head, err := m.git.ResolveCommit(ctx, wt.Dir, "HEAD")
	if err != nil {
		return "", false, fmt.Errorf("drop hunk: %w", err)
	}
	// From the reverse apply on, the drop runs to its commit on the task
	// branch whatever happens to ctx (a signal): stopped between the two,
	// the worktree would hold the drop with no commit recording it.
	if err := ctx.Err(); err != nil {
		return "", false, fmt.Errorf("drop hunk: %w", err)
	}
	ctx, cancel := m.git.Critical(ctx)
	defer cancel()
	if err := apply("-R", "--index"); err != nil {
		return "", false, &DropError{File: d.File, Index: d.Index, Header: d.Header, Detail: gitDetail(err)}
	}
	tree, err := m.git.WriteTree(ctx, wt.Dir, nil)
	if err != nil {
		return "", false, fmt.Errorf("drop hunk: %w", err)
	}
	commit, err = m.git.CommitTree(ctx, wt.Dir, gitx.Commit{Tree: tree, Parents: []string{head}, Message: message, Env: m.identityEnv()})
	if err != nil {
		return "", false, fmt.Errorf("drop hunk: %w", err)
	}
	subject, _, _ := strings.Cut(message, "\n")
	if err := m.git.UpdateRef(ctx, wt.Dir, "refs/heads/"+wt.Branch, commit, head, "boof-runner: "+subject); err != nil {
		return "", false, fmt.Errorf("drop hunk: %w", err)
	}
	return commit, false, nil
}

// gitDetail is the first line of a git error's message.
func gitDetail(err error) string {
	var ge *gitx.Error
	if errors.As(err, &ge) && ge.Detail() != "" {
		return ge.Detail()
	}
	return err.Error()
}
