package cli

import (
	"context"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/task"
)

// runDelete deletes a task and its rows and attachments. Git branches and
// worktrees are never touched here.
func runDelete(ctx context.Context, c *call) error {
	fs := c.newFlags()
	ch := addPRChoice(fs)
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if err := ch.check(); err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one task ID")
	}
	s, _, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	t, err := s.GetTask(ctx, pos[0])
	if err != nil {
		return err
	}
	if t.Status != task.StatusOngoing { // the store refuses an ongoing one below
		if err := c.decidePR(ctx, ch, t, "deleted"); err != nil {
			return err
		}
	}
	if err := s.DeleteTask(ctx, pos[0]); err != nil {
		return err
	}
	fmt.Fprintf(c.io.Stdout, "%s deleted (git branches and worktrees kept)\n", pos[0])
	return nil
}
