package cli

import (
	"context"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// runRetry re-queues a failed or stopped task: retry ID [--from planner|developer].
// By default a stopped task resumes at the step that was cut short and a
// failed one restarts at the planner.
func runRetry(ctx context.Context, c *call) error {
	fs := c.newFlags()
	from := fs.String("from", "", "where the run restarts: planner, or developer (keeps the last final plan)")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	switch *from {
	case "", string(task.RolePlanner), string(task.RoleDeveloper):
	default:
		return usagef("--from is planner or developer, not %q", *from)
	}
	if len(pos) != 1 {
		return usagef("expected one task ID")
	}
	s, _, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	t, err := s.RetryWith(ctx, pos[0], store.RetryOptions{From: task.Role(*from)})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.io.Stdout, "%s %s\n", t.ID, t.Status)
	return nil
}
