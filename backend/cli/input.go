package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// errInterrupted ends a command that was waiting for input when the
// process got SIGINT or SIGTERM; nothing was changed.
var errInterrupted = errors.New("interrupted while waiting for input; nothing was changed")

// tooLargeError is input over a command's limit.
type tooLargeError struct {
	what  string
	limit int64
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s; nothing was changed", e.what, sizeText(e.limit))
}

func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// readAll reads r to its end, at most limit bytes (a *tooLargeError
// beyond), returning errInterrupted as soon as ctx ends: a read from a
// terminal, a pipe or a FIFO with no writer never keeps the process from
// exiting on a signal. The read goes on in the background until the
// process exits.
func readAll(ctx context.Context, r io.Reader, limit int64, what string) ([]byte, error) {
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
		return nil, errInterrupted
	case res := <-done:
		if res.err != nil {
			return nil, fmt.Errorf("read %s: %w", what, res.err)
		}
		if int64(len(res.b)) > limit {
			return nil, &tooLargeError{what: what, limit: limit}
		}
		return res.b, nil
	}
}

// readFile reads the file at path like readAll. Opening a FIFO blocks until
// a writer appears, so the open too gives way to ctx; a folder is refused.
func readFile(ctx context.Context, path string, limit int64, what string) ([]byte, error) {
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	var f *os.File
	select {
	case <-ctx.Done():
		return nil, errInterrupted
	case o := <-done:
		var pe *fs.PathError
		switch {
		case errors.Is(o.err, fs.ErrNotExist):
			return nil, fmt.Errorf("%s does not exist", what)
		case errors.As(o.err, &pe):
			return nil, fmt.Errorf("cannot read %s: %w", what, pe.Err)
		case o.err != nil:
			return nil, fmt.Errorf("cannot read %s: %w", what, o.err)
		}
		f = o.f
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s is a folder, not a file", what)
	}
	return readAll(ctx, f, limit, what)
}
