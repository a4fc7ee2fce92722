package cli

import (
	"context"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// taskVerb runs a one-task store operation (archive, unarchive, retry) and
// prints "ID STATUS".
func taskVerb(ctx context.Context, c *call, op func(s *store.Store, id string) (task.Task, error)) error {
	fs := c.newFlags()
	pos, err := parse(fs, c.args)
	if err != nil {
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
	t, err := op(s, pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(c.io.Stdout, "%s %s\n", t.ID, t.Status)
	return nil
}

func runArchive(ctx context.Context, c *call) error {
	return taskVerb(ctx, c, func(s *store.Store, id string) (task.Task, error) { return s.Archive(ctx, id) })
}
