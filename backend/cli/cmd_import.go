package cli

import (
	"context"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/taskmd"
)

// runImport creates a task from a markdown file written by export (FILE "-"
// reads stdin) and prints the new task's id.
func runImport(ctx context.Context, c *call) error {
	fs := c.newFlags()
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one FILE (use - to read stdin)")
	}
	var data []byte
	if pos[0] == "-" {
		data, err = readAll(ctx, c.io.Stdin, taskmd.MaxSize, "the task file on standard input")
	} else {
		data, err = readFile(ctx, pos[0], taskmd.MaxSize, "the task file "+pos[0])
	}
	if err != nil {
		return err
	}
	d, err := taskmd.Parse(data)
	if err != nil {
		return fmt.Errorf("import %s: %w", pos[0], err)
	}
	s, _, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	t, err := taskmd.Import(ctx, s, d)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.io.Stdout, t.ID)
	return nil
}
