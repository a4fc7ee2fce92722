package cli

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
)

func runReject(ctx context.Context, c *call) error {
	fs := c.newFlags()
	del := fs.Bool("delete-branches", false, "also delete the task's branches (asks for confirmation)")
	yes := fs.Bool("yes", false, "with --delete-branches: confirm without asking")
	ch := addPRChoice(fs)
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if *yes && !*del {
		return usagef("--yes confirms --delete-branches: give both, or neither")
	}
	if err := ch.check(); err != nil {
		return err
	}
	rc, err := c.openReview(ctx, pos, true)
	if err != nil {
		return err
	}
	defer rc.store.Close()
	t := rc.task
	if err := task.CheckTransition(t.Status, task.StatusRejected); err != nil {
		return err
	}
	if err := c.decidePR(ctx, ch, t, "rejected"); err != nil {
		return err
	}
	r := review.RejectRequest{Repo: t.Repo, TaskID: t.ID, Status: t.Status, DeleteBranches: *del}
	if *del {
		if r.Confirm, err = rc.svc.TaskBranches(ctx, t.Repo, t.ID); err != nil {
			return err
		}
		fmt.Fprintf(c.io.Stderr, "this deletes %s\n", safeLine(review.Describe(r.Confirm)))
		if !*yes && !confirm(c, "type 'yes' to delete them: ") {
			return &usererr.Edge{Kind: usererr.NotConfirmed}
		}
	}
	out, err := rc.svc.Reject(ctx, r, review.StoreRecorder{Store: rc.store})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.io.Stdout, "rejected %s\n", t.ID)
	for _, b := range out.Deleted {
		fmt.Fprintf(c.io.Stdout, "deleted branch %s (was %s)\n", safeLine(b.Name), b.SHA)
	}
	return nil
}

// confirm asks on stderr and reads one line from stdin.
func confirm(c *call, prompt string) bool {
	fmt.Fprint(c.io.Stderr, prompt)
	if c.io.Stdin == nil {
		return false
	}
	line, _ := bufio.NewReader(c.io.Stdin).ReadString('\n')
	return strings.TrimSpace(line) == "yes"
}
