package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/boof-runner/boof-runner/backend/userfile"
)

// readAll reads standard input (r) to its end, at most limit bytes (a
// TooLarge *userfile.Error for role beyond), returning
// userfile.ErrInterrupted as soon as ctx ends: a read from a terminal or a
// pipe with no writer never keeps the process from exiting on a signal.
// The read goes on in the background until the process exits.
func readAll(ctx context.Context, r io.Reader, limit int64, role userfile.Role) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, limit+1))
		done <- result{b, err}
	}()
	select {
	case <-ctx.Done():
		return nil, userfile.ErrInterrupted
	case res := <-done:
		if res.err != nil {
			return nil, fmt.Errorf("read standard input: %w", res.err)
		}
		if int64(len(res.b)) > limit {
			return nil, &userfile.Error{Role: role, Path: userfile.StdinPath, Problem: userfile.TooLarge, Limit: limit}
		}
		return res.b, nil
	}
}

// readNamed reads a text the user gives as a FILE argument or, for "-",
// on standard input: at most limit bytes. A FILE must be a regular file
// (a named pipe is refused before it is opened).
func (c *call) readNamed(ctx context.Context, name string, limit int64, file, stdin userfile.Role) ([]byte, error) {
	if name == "-" {
		return readAll(ctx, c.io.Stdin, limit, stdin)
	}
	return userfile.Read(name, file, limit)
}
