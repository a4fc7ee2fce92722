package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// intFlag is an integer flag whose parse errors read well.
type intFlag struct {
	name string
	v    int
}

func (f *intFlag) String() string { return strconv.Itoa(f.v) }
func (f *intFlag) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("%s must be an integer, got %q", f.name, s)
	}
	f.v = n
	return nil
}

func runAdd(ctx context.Context, c *call) error {
	fs := c.newFlags()
	var n task.NewTask
	var labels stringList
	prio := &intFlag{name: "priority"}
	runs := &intFlag{name: "runs", v: 1}
	fs.StringVar(&n.Title, "title", "", "task title")
	fs.StringVar(&n.Base, "base", "", "branch or commit the worktree starts from")
	fs.Var(prio, "priority", "priority (higher runs first)")
	fs.Var(runs, "runs", "iterations wanted")
	fs.Var(&labels, "label", "label (repeatable)")
	fs.StringVar(&n.Repo, "repo", "", "working directory (default: settings.workingDirectory)")
	fs.BoolVar(&n.Draft, "draft", false, "store as a draft instead of queueing it")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one PROMPT argument (use - to read it from stdin), got %d", len(pos))
	}
	n.Prompt = pos[0]
	if n.Prompt == "-" {
		b, err := io.ReadAll(c.io.Stdin)
		if err != nil {
			return fmt.Errorf("read prompt from stdin: %w", err)
		}
		n.Prompt = string(b)
	}
	if runs.v < 1 {
		return fmt.Errorf("runs must be at least 1, got %d", runs.v)
	}
	n.Priority, n.Runs, n.Labels = prio.v, runs.v, labels
	if n.Repo != "" {
		if n.Repo, err = absPath(n.Repo); err != nil {
			return err
		}
	}
	if _, err := n.Normalize(); err != nil {
		return err // validate before touching the data root
	}
	s, _, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	t, err := s.CreateTask(ctx, n)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.io.Stdout, t.ID)
	return nil
}
