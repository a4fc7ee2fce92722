package worktree

import (
	"context"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/task"
)

// DefaultMaxInlineDiffBytes is review.maxInlineDiffBytes when unset.
const DefaultMaxInlineDiffBytes = 120000

// PromptDiff returns the task's diff for an agent prompt: everything in
// the worktree (committed and uncommitted tracked changes) against the
// task's base, followed by the list of untracked files. When the diff is
// larger than maxInline bytes (<= 0 means DefaultMaxInlineDiffBytes) it
// returns instead the --stat summary, the untracked list and a note giving
// the base sha and the `git diff` commands to run, and logs "Diff exceeds
// inline limit". An unisolated task gets a short note. Errors are wrapped
// gitx errors (gitx.ErrNoDir when the worktree directory is gone).
func (m *Manager) PromptDiff(ctx context.Context, wt Worktree, maxInline int, log Logf) (string, error) {
	if !wt.Isolated {
		return "No diff available: the task ran without worktree isolation (the working directory is not a git repository).\n", nil
	}
	if maxInline <= 0 {
		maxInline = DefaultMaxInlineDiffBytes
	}
	revs, err := revArgs(wt.BaseSHA, "")
	if err != nil {
		return "", fmt.Errorf("prompt diff: %w", err)
	}
	capped := &capWriter{limit: maxInline + 1}
	args := append(append(append([]string{}, diffArgs...), "--src-prefix=a/", "--dst-prefix=b/"), revs...)
	untracked, unErr := m.UntrackedBeside(ctx, wt.Dir, func() {
		_, err = m.git.Exec(ctx, gitx.Cmd{Dir: wt.Dir, Args: append(args, "--"), Stdout: capped})
	})
	if err != nil {
		return "", fmt.Errorf("prompt diff: %w", err)
	}
	if unErr != nil {
		return "", fmt.Errorf("prompt diff: %w", unErr)
	}
	var b strings.Builder
	if capped.total <= maxInline {
		if capped.total == 0 {
			fmt.Fprintf(&b, "No changes to tracked files against base %s.\n", wt.BaseSHA)
		}
		b.Write(capped.buf)
		writeUntracked(&b, untracked)
		return b.String(), nil
	}
	log(task.LevelInfo, "Diff exceeds inline limit (%d bytes > %d): the prompt carries the --stat summary", capped.total, maxInline)
	statArgs := append(append([]string{"-c", "core.quotePath=false"}, diffArgs...), "--stat=200,150")
	stat, err := m.git.Run(ctx, wt.Dir, append(append(statArgs, revs...), "--")...)
	if err != nil {
		return "", fmt.Errorf("prompt diff: %w", err)
	}
	fmt.Fprintf(&b, "The diff against base %s is %d bytes, over the inline limit of %d bytes, so only its summary is shown.\n", wt.BaseSHA, capped.total, maxInline)
	fmt.Fprintf(&b, "Run `git diff %s` in the worktree to see all changes, or `git diff %s -- <path>` for one file.\n\n", wt.BaseSHA, wt.BaseSHA)
	b.Write(stat)
	writeUntracked(&b, untracked)
	return b.String(), nil
}

func writeUntracked(b *strings.Builder, untracked []string) {
	if len(untracked) == 0 {
		return
	}
	b.WriteString("\nUntracked files (not in the diff above):\n")
	for _, p := range untracked {
		fmt.Fprintf(b, "  %q\n", p)
	}
}

// capWriter keeps the first limit bytes written and counts them all, so a
// huge diff is measured without being held in memory.
type capWriter struct {
	limit int
	total int
	buf   []byte
}

func (w *capWriter) Write(p []byte) (int, error) {
	if room := w.limit - len(w.buf); room > 0 {
		w.buf = append(w.buf, p[:min(room, len(p))]...)
	}
	w.total += len(p)
	return len(p), nil
}
