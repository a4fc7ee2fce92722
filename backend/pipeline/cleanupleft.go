package pipeline

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// FinishLeft tries again the worktree clean-up a finished run could not
// complete (store.CleanupLeft: its leftovers could not be saved, its
// directory not removed), under the retention policy of the settings now.
// When it is done, its lines go to the task's log and the record is
// dropped, and it returns true; when it still cannot finish, nothing is
// logged (the run's end said why) and the record stays. The error is for
// the store.
func (p *Pipeline) FinishLeft(ctx context.Context, t task.Task, c store.CleanupLeft) (bool, error) {
	r := &run{p: p, st: p.o.Store, t: t, set: p.o.Settings(), iter: t.CompletedRuns + t.FixRuns}
	o, ok := worktreeOutcome(c.Cleanup)
	if ok {
		ok = json.Unmarshal(c.Worktree, &r.wt) == nil && r.wt.Dir != ""
	}
	if !ok {
		r.logf(task.LevelWarn, "The worktree clean-up left at the end of a run cannot be read (%q); it is dropped", c.Cleanup)
		return true, r.st.DropCleanupLeft(ctx, t.ID)
	}
	type line struct {
		level task.LogLevel
		text  string
	}
	var lines []line
	logf := func(level task.LogLevel, format string, args ...any) {
		lines = append(lines, line{level, fmt.Sprintf(format, args...)})
	}
	policy := worktree.Policy{OnDone: r.set.Worktree.OnDone, OnFailure: r.set.Worktree.OnFailure}
	fr, err := p.o.Worktrees.Finish(r.gitCtx(ctx, "finish"), r.wt, o, policy, logf)
	r.sweep("finish")
	if err == nil && fr.Unfinished != "" {
		p.o.Logger.Warn("pipeline: the worktree clean-up left still cannot finish", "task", t.ID, "reason", fr.Unfinished)
		return false, nil
	}
	r.logf(task.LevelInfo, "Tried again the worktree clean-up left at the end of the run (%s):", c.Reason)
	for _, l := range lines {
		r.logf(l.level, "%s", l.text)
	}
	if err != nil {
		r.logf(task.LevelWarn, "Worktree cleanup: %v", err)
	}
	return true, r.st.DropCleanupLeft(ctx, t.ID)
}
