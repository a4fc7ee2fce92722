package cli

import (
	"context"
	"fmt"
	"io"
	"os"

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
	r := c.io.Stdin
	if pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, taskmd.MaxSize+1))
	if err != nil {
		return fmt.Errorf("import %s: %w", pos[0], err)
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
