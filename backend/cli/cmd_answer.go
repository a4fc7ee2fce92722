package cli

import (
	"context"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// runAnswer stores answers for a task parked in actions and re-queues it.
// TEXT "-" reads the answers from stdin.
func runAnswer(ctx context.Context, c *call) error {
	fs := c.newFlags()
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("expected a task ID and the answers TEXT (use - to read them from stdin)")
	}
	text := pos[1]
	if text == "-" {
		b, err := readAll(ctx, c.io.Stdin, store.MaxAnswers, userfile.Answer)
		if err != nil {
			return err
		}
		text = string(b)
	}
	s, _, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	t, err := s.Answer(ctx, pos[0], text)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.io.Stdout, "%s %s\n", t.ID, t.Status)
	return nil
}
