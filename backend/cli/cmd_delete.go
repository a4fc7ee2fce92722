package cli

import (
	"context"
	"fmt"
)

// runDelete deletes a task and its rows and attachments. Git branches and
// worktrees are never touched here.
func runDelete(ctx context.Context, c *call) error {
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
	if err := s.DeleteTask(ctx, pos[0]); err != nil {
		return err
	}
	fmt.Fprintf(c.io.Stdout, "%s deleted (git branches and worktrees kept)\n", pos[0])
	return nil
}
