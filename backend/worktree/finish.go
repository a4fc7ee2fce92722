package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Outcome is how a task ended.
type Outcome int

const (
	// OutcomeDone: the task finished and passed.
	OutcomeDone Outcome = iota + 1
	// OutcomeFailed: the task failed.
	OutcomeFailed
	// OutcomeStopped: the user stopped the task; its work is always kept.
	OutcomeStopped
)

// Retention policy values.
const (
	// KeepBranch (onDone default): save leftovers, remove the directory,
	// keep the branches.
	KeepBranch = "keep-branch"
	// Keep: keep the directory too (onFailure default; for onDone, leftovers
	// are still saved).
	Keep = "keep"
	// Delete (opt-in): remove the directory, the task branch and its
	// leftovers branch.
	Delete = "delete"
)

// Policy holds the worktree.onDone and worktree.onFailure settings; empty
// fields take the defaults.
type Policy struct {
	OnDone    string
	OnFailure string
}

// Check validates p and returns it with defaults filled in, or an error
// wrapping ErrBadPolicy.
func (p Policy) Check() (Policy, error) {
	if p.OnDone == "" {
		p.OnDone = KeepBranch
	}
	if p.OnFailure == "" {
		p.OnFailure = Keep
	}
	if p.OnDone != KeepBranch && p.OnDone != Keep && p.OnDone != Delete {
		return p, fmt.Errorf("worktree.onDone %q (want keep-branch, keep or delete): %w", p.OnDone, ErrBadPolicy)
	}
	if p.OnFailure != Keep && p.OnFailure != Delete {
		return p, fmt.Errorf("worktree.onFailure %q (want keep or delete): %w", p.OnFailure, ErrBadPolicy)
	}
	return p, nil
}

// FinishReport is what Finish did, for recording on the task.
type FinishReport struct {
	// Branch and HeadSHA are the task branch and its head when the task ended.
	Branch  string `json:"branch"`
	HeadSHA string `json:"headSha"`
	// LeftoversBranch and LeftoversSHA name the saved leftovers, if any.
	LeftoversBranch string `json:"leftoversBranch,omitempty"`
	LeftoversSHA    string `json:"leftoversSha,omitempty"`
	// DirRemoved is true when the worktree directory was removed.
	DirRemoved bool `json:"dirRemoved"`
	// BranchesDeleted is true when the "delete" policy removed the branches.
	BranchesDeleted bool `json:"branchesDeleted"`
	// KeptPaths lists nested repositories that kept the directory alive.
	KeptPaths []string `json:"keptPaths,omitempty"`
	// Unfinished says why a clean-up the policy asks for could not be
	// finished (the leftovers could not be saved, the directory not
	// removed: a full disk), so that it is tried again later; "" when it
	// was finished or stopped on purpose (nested repositories, a lock the
	// user put on the worktree).
	Unfinished string `json:"unfinished,omitempty"`
}

// Finish applies the retention policy to a task's worktree when the task
// ends. Under the defaults nothing is lost: on done, leftovers are saved on
// the side branch and then the directory is removed (kept, with the reason
// logged, when saving or removal fails or nested repositories were found;
// a failure is in the report's Unfinished, for trying again later);
// on failure or stop, directory and branch stay. A stopped task keeps its
// work even under onFailure "delete". It returns ErrBadPolicy (changing
// nothing) for an unknown policy or outcome, and wrapped git errors when
// the task branch cannot be read or "delete" fails.
func (m *Manager) Finish(ctx context.Context, wt Worktree, o Outcome, p Policy, log Logf) (FinishReport, error) {
	p, err := p.Check()
	if err != nil {
		return FinishReport{}, fmt.Errorf("finish: %w", err)
	}
	if o != OutcomeDone && o != OutcomeFailed && o != OutcomeStopped {
		return FinishReport{}, fmt.Errorf("finish: outcome %d: %w", o, ErrBadPolicy)
	}
	if !wt.Isolated {
		return FinishReport{}, nil
	}
	if err := CheckTaskID(wt.TaskID); err != nil {
		return FinishReport{}, fmt.Errorf("finish: %w", err)
	}
	head, ok, err := m.branchSHA(ctx, wt.Repo, "", wt.Branch)
	if err != nil {
		return FinishReport{}, fmt.Errorf("finish: %w", err)
	}
	if !ok {
		return FinishReport{}, fmt.Errorf("finish: task branch %s is gone: %w", wt.Branch, ErrNoBranch)
	}
	rep := FinishReport{Branch: wt.Branch, HeadSHA: head}
	_, statErr := os.Stat(wt.Dir)
	dirExists := statErr == nil

	switch {
	case o == OutcomeDone && p.OnDone == Delete, o == OutcomeFailed && p.OnFailure == Delete:
		return m.deleteAll(ctx, wt, rep, dirExists, log)
	case o == OutcomeDone:
		return m.finishDone(ctx, wt, rep, p, dirExists, log), nil
	}
	if o == OutcomeStopped && p.OnFailure == Delete {
		log(task.LevelInfo, "stopped task keeps its work although worktree.onFailure is delete")
	}
	if dirExists {
		log(task.LevelInfo, "worktree kept at %s on branch %s at %s", wt.Dir, wt.Branch, head)
	} else {
		log(task.LevelInfo, "worktree directory %s is missing; branch %s kept at %s", wt.Dir, wt.Branch, head)
	}
	return rep, nil
}

// Failpoints of the clean-up (see backend/failpoint).
const (
	// FailLeftoversSaved: the leftovers are saved, the directory is not
	// yet being removed.
	FailLeftoversSaved = "finish:leftovers-saved"
	// FailRemoved: the directory is removed, the removal marker not yet
	// dropped.
	FailRemoved = "finish:removed"
)

// ErrNoBranch: the task branch no longer exists.
var ErrNoBranch = errors.New("task branch missing")

func (m *Manager) finishDone(ctx context.Context, wt Worktree, rep FinishReport, p Policy, dirExists bool, log Logf) FinishReport {
	if mark, ok := readRemoval(wt.Root, wt.TaskID); ok {
		// A removal was cut short: the directory may be half deleted, so
		// its "changes" are not leftovers. They were saved before it began.
		rep.LeftoversBranch, rep.LeftoversSHA = mark.LeftoversBranch, mark.LeftoversSHA
		log(task.LevelWarn, "the removal of worktree %s was cut short: finishing it (leftovers were saved before it began: %s)", wt.Dir, orNone(mark.LeftoversSHA))
		return m.remove(ctx, wt, rep, true, log)
	}
	if !dirExists {
		log(task.LevelInfo, "worktree directory %s is missing: no leftovers to save; branch %s kept at %s", wt.Dir, wt.Branch, rep.HeadSHA)
		return rep
	}
	left, err := m.SaveLeftovers(ctx, wt, log)
	rep.LeftoversBranch, rep.LeftoversSHA = left.Branch, left.SHA
	if left.Parent != "" && left.Parent != rep.HeadSHA {
		log(task.LevelInfo, "worktree HEAD %s is not the task branch head %s: leftovers are based on the worktree HEAD", left.Parent, rep.HeadSHA)
	}
	if err != nil {
		log(task.LevelInfo, "worktree kept at %s: leftovers not saved: %v", wt.Dir, err)
		rep.Unfinished = fmt.Sprintf("leftovers not saved: %v", err)
		return rep
	}
	failpoint.Hit(FailLeftoversSaved)
	if len(left.Nested) > 0 {
		rep.KeptPaths = left.Nested
		log(task.LevelInfo, "worktree kept at %s: nested git repositories cannot be saved (skipped without a commit: %s; recorded as gitlinks otherwise): %s",
			wt.Dir, listOrNone(left.Skipped), strings.Join(left.Nested, ", "))
		return rep
	}
	if p.OnDone == Keep {
		log(task.LevelInfo, "worktree kept at %s on branch %s at %s", wt.Dir, wt.Branch, rep.HeadSHA)
		return rep
	}
	if err := writeRemoval(wt.Root, wt.TaskID, removal{LeftoversBranch: left.Branch, LeftoversSHA: left.SHA}); err != nil {
		log(task.LevelWarn, "worktree kept at %s: %v", wt.Dir, err)
		rep.Unfinished = err.Error()
		return rep
	}
	return m.remove(ctx, wt, rep, false, log)
}

// remove removes the worktree directory under the removal marker and
// drops the marker once it is gone; resumed says an earlier removal was
// cut short.
func (m *Manager) remove(ctx context.Context, wt Worktree, rep FinishReport, resumed bool, log Logf) FinishReport {
	if err := m.removeDir(ctx, wt, resumed); err != nil {
		if _, gerr := gitDirOf(wt.Dir); gerr == nil {
			_ = os.Remove(removalPath(wt.Root, wt.TaskID)) // refused, nothing deleted
		}
		log(task.LevelWarn, "worktree kept at %s: removal failed: %v", wt.Dir, err)
		if !lockedByUser(wt.Dir) {
			rep.Unfinished = fmt.Sprintf("removal failed: %v", err)
		}
		return rep
	}
	failpoint.Hit(FailRemoved)
	_ = os.Remove(removalPath(wt.Root, wt.TaskID))
	rep.DirRemoved = true
	log(task.LevelInfo, "worktree %s removed; branch %s kept at %s", wt.Dir, wt.Branch, rep.HeadSHA)
	return rep
}

// removeDir removes the worktree directory and its registration. When an
// earlier removal was cut short (resumed), the half-deleted directory may
// no longer validate as a worktree; unless the user locked it, it is then
// deleted directly and the registration pruned.
func (m *Manager) removeDir(ctx context.Context, wt Worktree, resumed bool) error {
	unlock, err := m.lock(ctx, wt.Repo)
	if err != nil {
		return err
	}
	defer unlock()
	if _, statErr := os.Lstat(wt.Dir); errors.Is(statErr, os.ErrNotExist) {
		if _, err := m.git.Run(ctx, wt.Repo, "worktree", "prune"); err != nil {
			return fmt.Errorf("prune worktrees: %w", err)
		}
		return nil
	}
	_, err = m.git.Run(ctx, wt.Repo, "worktree", "remove", "--force", "--", wt.Dir)
	if err == nil {
		return nil
	}
	if !resumed || lockedByUser(wt.Dir) {
		return fmt.Errorf("remove worktree: %w", err)
	}
	if rerr := os.RemoveAll(wt.Dir); rerr != nil {
		return fmt.Errorf("remove worktree: %w (and deleting it directly failed: %v)", err, rerr)
	}
	if _, perr := m.git.Run(ctx, wt.Repo, "worktree", "prune"); perr != nil {
		return fmt.Errorf("prune worktrees: %w", perr)
	}
	return nil
}

func (m *Manager) deleteAll(ctx context.Context, wt Worktree, rep FinishReport, dirExists bool, log Logf) (FinishReport, error) {
	unlock, err := m.lock(ctx, wt.Repo)
	if err != nil {
		return rep, fmt.Errorf("finish: %w", err)
	}
	defer unlock()
	// Once the deleting begins, it runs to the log line naming every
	// deleted branch and its commit whatever happens to ctx (a signal).
	if err := ctx.Err(); err != nil {
		return rep, fmt.Errorf("finish: %w", err)
	}
	ctx, cancel := m.git.Critical(ctx)
	defer cancel()
	if dirExists {
		if _, err := m.git.Run(ctx, wt.Repo, "worktree", "remove", "--force", "--force", "--", wt.Dir); err != nil {
			return rep, fmt.Errorf("finish: delete: %w", err)
		}
	} else if _, err := m.git.Run(ctx, wt.Repo, "worktree", "prune"); err != nil {
		return rep, fmt.Errorf("finish: delete: %w", err)
	}
	rep.DirRemoved = true
	deleted := []string{wt.Dir}
	for _, b := range []string{wt.Branch, LeftoversBranchName(wt.TaskID)} {
		sha, ok, err := m.branchSHA(ctx, wt.Repo, "", b)
		if err != nil {
			return rep, fmt.Errorf("finish: delete: %w", err)
		}
		if !ok {
			continue
		}
		if err := m.git.DeleteRef(ctx, wt.Repo, "refs/heads/"+b, sha); err != nil {
			return rep, fmt.Errorf("finish: delete: %w", err)
		}
		deleted = append(deleted, fmt.Sprintf("%s (was %s)", b, sha))
	}
	rep.BranchesDeleted = true
	_ = os.Remove(metaPath(wt.Root, wt.TaskID))
	log(task.LevelWarn, "WARNING: DELETED task work: %s", strings.Join(deleted, ", "))
	return rep, nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
