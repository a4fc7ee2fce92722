package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/store"
)

// runEdit changes a task's priority, skip flag, title or labels, all in one
// step: either every change is made or none.
func runEdit(ctx context.Context, c *call) error {
	fs := c.newFlags()
	var e store.FieldEdit
	var labels stringList
	prio := &intFlag{name: "priority"}
	fs.Var(prio, "priority", "priority (higher runs first)")
	skip := fs.Bool("skip", false, "let the queue skip the task")
	noSkip := fs.Bool("no-skip", false, "let the queue run the task again")
	title := fs.String("title", "", "new title (\"\" clears it; draft or pending tasks)")
	fs.Var(&labels, "label", "label (repeatable; replaces the labels; --label '' clears them; draft or pending tasks)")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one task ID")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["skip"] && set["no-skip"] {
		return usagef("--skip and --no-skip contradict each other")
	}
	if len(set)-boolInt(set["data-dir"]) == 0 {
		return usagef("nothing to change: give --priority, --skip, --no-skip, --title or --label")
	}
	if set["priority"] {
		n, err := prio.value()
		if err != nil {
			return err
		}
		e.Priority = &n
	}
	switch {
	case set["skip"]:
		e.Skip = skip
	case set["no-skip"]:
		f := !*noSkip
		e.Skip = &f
	}
	if set["title"] {
		e.Title = title
	}
	if set["label"] {
		e.SetLabel, e.Labels = true, labels
		if len(labels) == 1 && strings.TrimSpace(labels[0]) == "" {
			e.Labels = nil // --label '' alone clears them
		}
	}
	s, _, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	t, err := s.EditFields(ctx, pos[0], e)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.io.Stdout, t.ID)
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
