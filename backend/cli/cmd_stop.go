package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/runner"
)

// runStop asks the runner to stop a running task: `stop ID`.
func runStop(ctx context.Context, c *call) error {
	fs := c.newFlags()
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one task ID, got %d arguments", len(pos))
	}
	st, paths, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := runner.Stop(ctx, st, pos[0]); err != nil {
		return err
	}
	fmt.Fprintf(c.io.Stdout, "stop requested for %s\n", pos[0])
	if lock, err := runner.AcquireLock(paths.RunnerLock()); err == nil {
		lock.Release()
		fmt.Fprintln(c.io.Stdout, "no runner is running on this data root: the next runner start stops the task and records it as interrupted")
	} else if errors.Is(err, runner.ErrLocked) {
		fmt.Fprintln(c.io.Stdout, "the runner stops the running step's processes and records the task as stopped; its worktree and branch are kept")
	}
	return nil
}
