package runner

import (
	"context"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/budget"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
)

// hold reports whether a reached budget cap holds t back from the queue;
// the first time a task is held for a reason, the log says why (and the
// task stays pending: it runs once the cap is raised or its period rolls
// over).
func (r *Runner) hold(ctx context.Context, t task.Task, set settings.Settings) (bool, error) {
	if r.o.Budgets == nil {
		return false, nil
	}
	reached, err := r.o.Budgets.Hold(ctx, t, budget.TaskTools(t, set))
	if err != nil {
		return false, err
	}
	r.mu.Lock()
	if r.held == nil {
		r.held = map[string]string{}
	}
	if reached == nil {
		delete(r.held, t.ID)
		r.mu.Unlock()
		return false, nil
	}
	why := reached.Reason()
	if !reached.Resets.IsZero() {
		why += fmt.Sprintf("; it resets at %s", reached.Resets.Format("2006-01-02 15:04"))
	}
	fresh := r.held[t.ID] != why
	r.held[t.ID] = why
	r.mu.Unlock()
	if fresh {
		r.log(ctx, t.ID, 0, task.LevelWarn, "Queue holds this task: "+why+"; raise the limit or wait for the period to roll over")
	}
	return true, nil
}
