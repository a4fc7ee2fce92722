package review

import (
	"context"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// RenderResolveConflicts writes the "## Human review" section that sends a
// task whose accept conflicts back to its developer: merge the target
// into the task branch and resolve the listed files.
func RenderResolveConflicts(target string, files []string) string {
	target = strings.TrimPrefix(target, "refs/heads/")
	var b strings.Builder
	b.WriteString(HumanReviewHeading + "\n\n")
	fmt.Fprintf(&b, "The user wants to accept this work into the branch %s, but it has moved on and the two conflict. ", quoteName(target))
	fmt.Fprintf(&b, "Merge %s into your branch in this worktree (`git merge %s`), resolve every conflict keeping both sides' intent, and commit the merge.", quoteName(target), target)
	if len(files) > 0 {
		b.WriteString(" The conflicting files:\n\n")
		for _, f := range files {
			fmt.Fprintf(&b, "- %s\n", quoteName(f))
		}
	} else {
		b.WriteString("\n")
	}
	return b.String()
}

// ResolveWithAgent sends a task whose accept conflicts (see ConflictError)
// back to its developer through SendBack: a fix run whose roles read the
// instruction of RenderResolveConflicts; the task then goes through the
// review gate again. Errors: *task.TransitionError for a task that has not
// finished or may not return to pending, ErrBadBranch, or the recorder's
// error wrapped.
func ResolveWithAgent(ctx context.Context, taskID string, status task.Status, target string, files []string, rec ChangeRecorder) (Queued, error) {
	if _, err := branchRef(target); err != nil {
		return Queued{}, err
	}
	return SendBack(ctx, taskID, status, RenderResolveConflicts(target, files), SourceConflicts, rec)
}
