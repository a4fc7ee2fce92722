package review

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Request asks to accept a task's work into a target branch.
type Request struct {
	// Repo is the task's working directory (any directory of the repository).
	Repo string `json:"repo"`
	// TaskID names the task branch boof-runner/<TaskID>.
	TaskID string `json:"task_id"`
	// Status, when set, is the task's current status; a status that may
	// not become accepted is refused before git runs.
	Status task.Status `json:"status,omitempty"`
	// Target is the branch to accept into (a short name or refs/heads/...).
	Target string `json:"target"`
	// Strategy is merge, squash or rebase ("" means merge).
	Strategy Strategy `json:"strategy"`
	// Message is the merge or squash commit message; "" uses a default
	// naming the task. Rebase keeps the task's own messages.
	Message string `json:"message,omitempty"`
	// IncludeLeftovers adds the leftovers side branch's commit on top of
	// the task branch.
	IncludeLeftovers bool `json:"include_leftovers"`
	// ExpectTarget, when set, is the target commit the user saw in the dry
	// run; a target that has moved since gives *MovedError.
	ExpectTarget string `json:"expect_target,omitempty"`
	// Unverified, when set, says the task's latest verification failed
	// (store.UnverifiedReason); the accept is refused with
	// *NotVerifiedError before git runs.
	Unverified string `json:"unverified,omitempty"`
	// Only, when set, makes a hunk-level accept: one squash commit of the
	// chosen files and hunks of the task's diff from Base to the task
	// branch ("" = the merge base of target and branch), built on the
	// target's tree; the rest stays on the task branch.
	Only []Selection `json:"only,omitempty"`
	Base string      `json:"base,omitempty"`
	// ExpectHead, when set, is the task branch commit whose diff the user
	// chose from; a branch that moved since gives *MovedError.
	ExpectHead string `json:"expect_head,omitempty"`
}

// Plan is the dry run of an accept: what would be done and what stands in
// the way. Plan never changes a ref, index or working tree.
type Plan struct {
	Strategy Strategy `json:"strategy"`
	// TargetRef and TargetSHA are the target branch and its commit now.
	TargetRef string `json:"target_ref"`
	TargetSHA string `json:"target_sha"`
	// TaskRef and TaskHead are the task branch and its commit.
	TaskRef  string `json:"task_ref"`
	TaskHead string `json:"task_head"`
	// Leftovers is the leftovers commit included, "" when none.
	Leftovers string `json:"leftovers,omitempty"`
	// Head is what is accepted: TaskHead, or a commit adding the leftovers.
	Head string `json:"head"`
	// Commits are the accepted commits not yet on the target, oldest first.
	Commits []string `json:"commits"`
	// Tree is the merged tree of target and Head ("" with conflicts).
	Tree string `json:"tree,omitempty"`
	// FastForward is true when the target is an ancestor of Head.
	FastForward bool `json:"fast_forward"`
	// Checkout is the directory where the target is checked out, "" when
	// it is checked out nowhere.
	Checkout string `json:"checkout,omitempty"`
	// Dirty lists the checkout's uncommitted changes to tracked files, or
	// the untracked files the accept would overwrite.
	Dirty []string `json:"dirty,omitempty"`
	// Conflicts lists the files the merge of target and Head conflicts in.
	Conflicts []string `json:"conflicts,omitempty"`
	// Only lists what a hunk-level accept takes (Request.Only).
	Only []task.AcceptedFile `json:"only,omitempty"`
	// Makes describes what the accept would put on the target: for a
	// hunk-level accept one squash commit of the chosen changes, whatever
	// Commits the task branch has. Filled by the dry run (Plan) when
	// nothing conflicts.
	Makes *Outcome `json:"makes,omitempty"`
}

// Plan makes the dry run of r. A plan that cannot be applied returns the
// filled Plan with *ConflictError (Conflicts set) or *DirtyError (Dirty
// set). Other errors: ErrBadStrategy, ErrBadBranch, ErrNoTarget,
// ErrNoTaskBranch, ErrSameBranch, ErrNothingToAccept, *MovedError (when
// ExpectTarget differs), *task.TransitionError, or wrapped gitx errors.
func (s *Service) Plan(ctx context.Context, r Request) (Plan, error) {
	common, unlock, err := s.lockRepo(ctx, r.Repo)
	if err != nil {
		return Plan{}, fmt.Errorf("accept dry run: %w", err)
	}
	defer unlock()
	return s.plan(ctx, r, common, true)
}

// plan makes the dry run. full=false is the accept's own pass: it leaves
// the checkout's state to the swap, which checks it right before moving
// anything, and lists the commits only when a rebase needs them.
func (s *Service) plan(ctx context.Context, r Request, common string, full bool) (Plan, error) {
	var p Plan
	var err error
	if p.Strategy, err = checkRequest(r); err != nil {
		return p, err
	}
	if p.TaskRef, err = branchRef(TaskBranch(r.TaskID)); err != nil {
		return p, fmt.Errorf("task id %q: %w", r.TaskID, err)
	}
	if p.TargetRef, err = branchRef(r.Target); err != nil {
		return p, err
	}
	leftRef := "refs/heads/" + LeftoversBranch(r.TaskID)
	if p.TargetRef == p.TaskRef || p.TargetRef == leftRef {
		return p, fmt.Errorf("%s: %w", p.TargetRef, ErrSameBranch)
	}
	refs, err := s.git.RefSHAs(ctx, r.Repo, common, p.TargetRef, p.TaskRef, leftRef)
	if err != nil {
		return p, err
	}
	if p.TargetSHA = refs[p.TargetRef]; p.TargetSHA == "" {
		return p, fmt.Errorf("%s: %w", p.TargetRef, ErrNoTarget)
	}
	if r.ExpectTarget != "" && r.ExpectTarget != p.TargetSHA {
		return p, &MovedError{Ref: p.TargetRef, Expected: r.ExpectTarget, Actual: p.TargetSHA}
	}
	if p.TaskHead = refs[p.TaskRef]; p.TaskHead == "" {
		return p, fmt.Errorf("%s: %w", p.TaskRef, ErrNoTaskBranch)
	}
	if r.ExpectHead != "" && r.ExpectHead != p.TaskHead {
		return p, &MovedError{Ref: p.TaskRef, Expected: r.ExpectHead, Actual: p.TaskHead}
	}
	p.Head = p.TaskHead
	if l := refs[leftRef]; r.IncludeLeftovers && l != "" && l != p.TaskHead {
		if err := s.addLeftovers(ctx, r, l, &p); err != nil {
			return p, err
		}
	}
	nothing := fmt.Errorf("%s already holds the work of %s: %w", p.TargetRef, short(p.Head), ErrNothingToAccept)
	if full || p.Strategy == StrategyRebase {
		var targetOnly int
		if p.Commits, targetOnly, err = s.divergence(ctx, r.Repo, p.TargetSHA, p.Head); err != nil {
			return p, err
		}
		if len(p.Commits) == 0 {
			return p, nothing
		}
		p.FastForward = targetOnly == 0
	}
	var res gitx.MergeResult
	if len(r.Only) > 0 {
		if p.Only, err = s.subsetTree(ctx, r, common, &p); err != nil {
			return p, err
		}
		res.Tree = p.Tree
	} else {
		res, err = s.git.MergeTree(ctx, r.Repo, p.TargetSHA, p.Head)
	}
	switch {
	case len(p.Conflicts) > 0:
	case errors.Is(err, gitx.ErrConflict):
		p.Conflicts = res.Conflicts
	case err != nil:
		return p, fmt.Errorf("accept dry run: %w", err)
	case res.Tree == s.targetTree(ctx, r.Repo, common, p.TargetSHA):
		// Every change of the task is already on the target.
		return p, nothing
	default:
		p.Tree = res.Tree
	}
	if full && p.Tree != "" {
		o, err := s.outcome(ctx, r, p)
		if err != nil {
			return p, err
		}
		p.Makes = &o
	}
	if err := s.findCheckout(ctx, r.Repo, &p, full); err != nil {
		return p, err
	}
	if p.Checkout == "" {
		if err := inProgress(common, p.TargetRef); err != nil {
			return p, err
		}
	}
	if len(p.Conflicts) > 0 {
		return p, &ConflictError{Files: p.Conflicts}
	}
	if len(p.Dirty) > 0 {
		return p, &DirtyError{Dir: p.Checkout, Files: p.Dirty}
	}
	return p, nil
}

// checkRequest refuses what no repository state makes acceptable: an
// unknown strategy, an unverified task, a hunk choice with another
// strategy or with the leftovers, a task not in a state to accept. It
// returns the strategy.
func checkRequest(r Request) (Strategy, error) {
	st, err := ParseStrategy(string(r.Strategy))
	if err != nil {
		return st, err
	}
	if r.Unverified != "" {
		return st, &NotVerifiedError{Reason: r.Unverified}
	}
	if len(r.Only) > 0 && st != StrategySquash {
		return st, ErrSubsetStrategy
	}
	if len(r.Only) > 0 && r.IncludeLeftovers {
		return st, fmt.Errorf("%w: the leftovers cannot be part of a hunk-level accept", ErrSubsetStrategy)
	}
	if r.Status != "" {
		if err := task.CheckTransition(r.Status, task.StatusAccepted); err != nil {
			return st, err
		}
	}
	return st, nil
}

// mustRef returns ref's commit, or missing (wrapped) when it does not exist.
func (s *Service) mustRef(ctx context.Context, repo, ref string, missing error) (string, error) {
	sha, ok, err := s.git.RefSHA(ctx, repo, ref)
	if err != nil {
		return "", fmt.Errorf("accept: %w", err)
	}
	if !ok {
		return "", fmt.Errorf("%s: %w", ref, missing)
	}
	return sha, nil
}

// addLeftovers sets p.Head to a commit holding the task head plus the
// leftovers. When the leftovers were saved on the current task head this
// is the leftovers commit itself; when the task branch moved on since,
// the leftovers are merged onto it (a commit object only, no ref).
func (s *Service) addLeftovers(ctx context.Context, r Request, l string, p *Plan) error {
	p.Leftovers = l
	if anc, err := s.isAncestor(ctx, r.Repo, p.TaskHead, l); err != nil {
		return err
	} else if anc {
		p.Head = l
		return nil
	}
	res, err := s.git.MergeTree(ctx, r.Repo, p.TaskHead, l)
	if errors.Is(err, gitx.ErrConflict) {
		p.Conflicts = res.Conflicts
		return &ConflictError{Files: res.Conflicts}
	}
	if err != nil {
		return fmt.Errorf("add leftovers: %w", err)
	}
	msg := fmt.Sprintf("Leftovers of task %s\n\nUncommitted work saved when the task ended (%s),\nadded on top of the task branch.\n", r.TaskID, l)
	head, err := s.commitTree(ctx, r.Repo, gitx.Commit{Tree: res.Tree, Parents: []string{p.TaskHead}, Message: msg})
	if err != nil {
		return fmt.Errorf("add leftovers: %w", err)
	}
	p.Head = head
	return nil
}

// isAncestor reports whether a is an ancestor of (or equal to) b.
func (s *Service) isAncestor(ctx context.Context, repo, a, b string) (bool, error) {
	_, err := s.git.Run(ctx, repo, "merge-base", "--is-ancestor", a, b)
	var ge *gitx.Error
	if errors.As(err, &ge) && ge.ExitCode == 1 {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("merge-base: %w", err)
	}
	return true, nil
}

// targetTree returns the tree of the target's commit, "" when it cannot
// be read (the comparison it serves then finds no match).
func (s *Service) targetTree(ctx context.Context, repo, common, sha string) string {
	tree, err := s.git.TreeOf(ctx, repo, common, sha)
	if err != nil {
		return ""
	}
	return tree
}

// divergence returns the commits of head that target lacks, oldest first,
// and how many commits target has that head lacks, in one git call.
func (s *Service) divergence(ctx context.Context, repo, target, head string) ([]string, int, error) {
	out, err := s.git.Run(ctx, repo, "rev-list", "--left-right", "--reverse", "--end-of-options", target+"..."+head)
	if err != nil {
		return nil, 0, fmt.Errorf("compare with target: %w", err)
	}
	commits := []string{}
	left := 0
	for _, line := range strings.Fields(string(out)) {
		switch line[0] {
		case '>':
			commits = append(commits, line[1:])
		case '<':
			left++
		}
	}
	return commits, left, nil
}
