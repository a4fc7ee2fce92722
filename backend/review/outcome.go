package review

import (
	"context"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/worktree"
)

// OutcomeKind is what an accept puts on the target.
type OutcomeKind string

const (
	// OutcomeMergeCommit is one merge commit of the target and the task's
	// head (strategy merge).
	OutcomeMergeCommit OutcomeKind = "merge_commit"
	// OutcomeSquashCommit is one commit on the target holding the task's
	// changes, or only the chosen ones for a hunk-level accept (strategy
	// squash).
	OutcomeSquashCommit OutcomeKind = "squash_commit"
	// OutcomeRebase is the task's commits replayed onto the target, which
	// moves to the last of them (strategy rebase, the target moved on).
	OutcomeRebase OutcomeKind = "rebase"
	// OutcomeFastForward is the target moved to the task's head, no
	// commit written (strategy rebase, the target did not move on).
	OutcomeFastForward OutcomeKind = "fast_forward"
)

// Outcome describes what an accept would make, for its dry run to say (the
// CLI's accept --dry-run and the window's accept dialog): the kind of
// result, how many commits the target's history gains, the message of the
// commit a merge or squash writes, and the files the target's tree changes
// in with their line counts.
type Outcome struct {
	Kind OutcomeKind `json:"kind"`
	// Commits is how many commits the target's history gains: 1 for a
	// squash, the merge commit and the task's commits for a merge, the
	// replayed (or fast-forwarded) task commits for a rebase.
	Commits int `json:"commits"`
	// Subset is set for a hunk-level accept: the squash commit holds only
	// the chosen files and hunks (Plan.Only); the rest stays on the task
	// branch.
	Subset bool `json:"subset"`
	// Message is the message of the commit a merge or squash writes; ""
	// for a rebase or a fast-forward, which keep the task's own messages.
	Message string `json:"message,omitempty"`
	// Files are the files the target's tree changes in, from its tree now
	// to the result's; Additions and Deletions are their line totals.
	Files     []FileStat `json:"files"`
	Additions int        `json:"additions"`
	Deletions int        `json:"deletions"`
}

// Subject is the first line of the outcome's message ("" when it has none).
func (o Outcome) Subject() string {
	first, _, _ := strings.Cut(o.Message, "\n")
	return first
}

// FileStat is one file an accept changes on the target.
type FileStat struct {
	Path string `json:"path"`
	// OldPath is a renamed file's former path.
	OldPath string `json:"old_path,omitempty"`
	// Change is added, modified, deleted, renamed, copied or typechange.
	Change    string `json:"change"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	Binary    bool   `json:"binary"`
}

// message is the commit message of r's merge or squash: r.Message, or
// the bare default naming the task when a caller gave none (the window,
// the CLI and the merge queue fill in TaskMessage).
func message(r Request, st Strategy) string {
	if strings.TrimSpace(r.Message) != "" {
		return r.Message
	}
	return DefaultMessage(st, r.TaskID, "", "")
}

// outcome describes what the accept of r planned in p makes (p.Tree set).
func (s *Service) outcome(ctx context.Context, r Request, p Plan) (Outcome, error) {
	o := Outcome{Subset: len(r.Only) > 0}
	switch {
	case p.Strategy == StrategyMerge:
		o.Kind, o.Commits, o.Message = OutcomeMergeCommit, len(p.Commits)+1, message(r, p.Strategy)
	case p.Strategy == StrategySquash:
		o.Kind, o.Commits, o.Message = OutcomeSquashCommit, 1, message(r, p.Strategy)
	case p.FastForward:
		o.Kind, o.Commits = OutcomeFastForward, len(p.Commits)
	default:
		o.Kind, o.Commits = OutcomeRebase, len(p.Commits)
	}
	fcs, err := worktree.NewManager(s.git, s.now).Files(ctx, r.Repo, p.TargetSHA, p.Tree)
	if err != nil {
		return o, fmt.Errorf("accept dry run: %w", err)
	}
	o.Files = make([]FileStat, 0, len(fcs))
	for _, f := range fcs {
		o.Files = append(o.Files, FileStat{Path: f.Path, OldPath: f.OldPath, Change: string(f.Status),
			Additions: f.Added, Deletions: f.Removed, Binary: f.Binary})
		o.Additions += f.Added
		o.Deletions += f.Removed
	}
	return o, nil
}
