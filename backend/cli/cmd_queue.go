package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/mergequeue"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// queueUsage is the queue command's shape.
const queueUsage = "queue add ID... [--target BRANCH] [--strategy merge|squash|rebase] | queue list [--all] [--json] | queue remove ID | queue move ID POSITION | queue send-back ID"

// runQueue manages the merge queue; the runner lands its entries.
func runQueue(ctx context.Context, c *call) error {
	if len(c.args) == 0 {
		return usagef("expected a subcommand: %s", queueUsage)
	}
	sub := c.args[0]
	c.args = c.args[1:]
	switch sub {
	case "-h", "-help", "--help", "help":
		c.newFlags() // the usage Run prints for ErrHelp
		return flag.ErrHelp
	case "add":
		return queueAdd(ctx, c)
	case "list", "ls":
		return queueList(ctx, c)
	case "remove", "rm":
		return queueOne(ctx, c, func(q *mergequeue.Queue, id string) error {
			removed, err := q.Remove(ctx, id)
			if err == nil && !removed {
				fmt.Fprintf(c.io.Stdout, "%s is landing now: it is removed before its target moves\n", id)
			} else if err == nil {
				fmt.Fprintf(c.io.Stdout, "removed %s from the merge queue\n", id)
			}
			return err
		})
	case "send-back":
		return queueOne(ctx, c, func(q *mergequeue.Queue, id string) error {
			e, err := q.SendBack(ctx, id)
			if err == nil {
				fmt.Fprintf(c.io.Stdout, "sent %s back to the developer; it is queued again on %s when it is done\n", id, safeLine(e.Target))
			}
			return err
		})
	case "move":
		fs := c.newFlags()
		pos, err := parse(fs, c.args)
		if err != nil {
			return err
		}
		if len(pos) != 2 {
			return usagef("expected a task ID and a position (1 is first)")
		}
		n, err := strconv.Atoi(pos[1])
		if err != nil || n < 1 {
			return usagef("position %q is not a number from 1", pos[1])
		}
		q, st, err := c.openQueue(ctx)
		if err != nil {
			return err
		}
		defer st.Close()
		es, err := q.Move(ctx, pos[0], n-1)
		if err != nil {
			return err
		}
		return printQueue(c, es)
	}
	return usagef("unknown queue subcommand %q: %s", sub, queueUsage)
}

// openQueue opens the store and the merge queue (no runner lock needed:
// these commands only change entries; the runner lands them).
func (c *call) openQueue(ctx context.Context) (*mergequeue.Queue, *store.Store, error) {
	st, paths, err := c.openStore(ctx)
	if err != nil {
		return nil, nil, err
	}
	svc := host.NewServices(host.Options{Paths: paths, Store: st})
	set := func() settings.Settings { s, _ := svc.Settings.Load(); return s }
	return svc.MergeQueue(set), st, nil
}

func queueAdd(ctx context.Context, c *call) error {
	fs := c.newFlags()
	target := fs.String("target", "", "branch to land on (default: each task's base branch, else the branch checked out in its repository)")
	strategy := fs.String("strategy", "merge", "merge, squash or rebase")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("expected one or more task IDs")
	}
	q, st, err := c.openQueue(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	es, err := q.Add(ctx, pos, *target, *strategy)
	if err != nil {
		return err
	}
	for _, e := range es {
		fmt.Fprintf(c.io.Stdout, "queued %s on %s (%s), position %d\n", e.TaskID, safeLine(e.Target), e.Strategy, e.Position)
	}
	return nil
}

func queueList(ctx context.Context, c *call) error {
	fs := c.newFlags()
	all := fs.Bool("all", false, "also list landed and undone entries")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	st, _, err := c.openStoreRead(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	es, err := st.QueueEntries(ctx, *all)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(c.io.Stdout, es)
	}
	return printQueue(c, es)
}

// printQueue prints the entries as a table, a blocked entry's reason and
// files under it.
func printQueue(c *call, es []task.QueueEntry) error {
	if len(es) == 0 {
		fmt.Fprintln(c.io.Stdout, "the merge queue is empty")
		return nil
	}
	tw := tabwriter.NewWriter(c.io.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tTASK\tTARGET\tSTRATEGY\tSTATE\tREASON")
	for i, e := range es {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", i+1, e.TaskID, safeLine(e.Target), e.Strategy, e.State, safeLine(e.Reason))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, e := range es {
		if len(e.Files) > 0 {
			fmt.Fprintf(c.io.Stdout, "\n%s conflicts in: %s\n", e.TaskID, safeLine(strings.Join(e.Files, ", ")))
		}
	}
	return nil
}

// queueOne runs op on the one task ID argument.
func queueOne(ctx context.Context, c *call, op func(q *mergequeue.Queue, id string) error) error {
	fs := c.newFlags()
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one task ID")
	}
	q, st, err := c.openQueue(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	return op(q, pos[0])
}
