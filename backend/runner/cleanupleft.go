package runner

import (
	"context"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/task"
)

// finishLeft tries again the worktree clean-ups that finished runs could
// not complete (their leftovers could not be saved, their directory not
// removed: a full disk), each through pipeline.FinishLeft; one that still
// cannot finish stays for the next try. Problems are logged.
func (r *Runner) finishLeft(ctx context.Context) {
	cs, err := r.o.Store.CleanupsLeft(ctx)
	if err != nil {
		r.o.Logger.Warn("runner: cannot list the worktree clean-ups left", "err", err)
		return
	}
	done := 0
	for _, c := range cs {
		if ctx.Err() != nil {
			return
		}
		t, err := r.o.Store.GetTask(ctx, c.TaskID)
		if err != nil {
			r.o.Logger.Warn("runner: cannot read a task whose worktree clean-up was left", "task", c.TaskID, "err", err)
			continue
		}
		ok, err := r.o.Pipeline.FinishLeft(ctx, t, c)
		if err != nil {
			r.o.Logger.Warn("runner: the worktree clean-up left could not be recorded", "task", c.TaskID, "err", err)
		}
		if ok {
			done++
		}
	}
	if done > 0 {
		r.log(ctx, "", 0, task.LevelInfo, fmt.Sprintf("finished the worktree clean-up left by %d earlier run(s)", done))
	}
}
