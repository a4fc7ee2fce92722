package cli

import (
	"context"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// runInject stores a prompt for a task: `inject ID TEXT` (TEXT - reads stdin).
func runInject(ctx context.Context, c *call) error {
	fs := c.newFlags()
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("expected ID and TEXT (use - to read it from stdin), got %d arguments", len(pos))
	}
	text := pos[1]
	if text == "-" {
		b, err := readAll(ctx, c.io.Stdin, store.MaxInjection, userfile.Prompt)
		if err != nil {
			return err
		}
		text = string(b)
	}
	st, _, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	rep, err := runner.Inject(ctx, st, host.MidRunInput, pos[0], text)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.io.Stdout, safeLine(rep.Message))
	return nil
}
