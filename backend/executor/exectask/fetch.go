package exectask

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
)

// Fetch downloads url to path (an init container's work: the base bundle
// of a repository too large for a ConfigMap, served by the desktop). It
// tries for a minute while the server cannot be reached, and writes the
// file whole or not at all.
func Fetch(ctx context.Context, url, path string) error {
	var last error
	for try := 0; try < 30; try++ {
		if try > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(2 * time.Second):
			}
		}
		err := fetchOnce(ctx, url, path)
		if err == nil {
			return nil
		}
		last = err
		if _, ok := err.(*statusError); ok {
			return err // the server answered: trying again gives the same
		}
	}
	return last
}

type statusError struct{ status string }

func (e *statusError) Error() string { return "the bundle server answered " + e.status }

func fetchOnce(ctx context.Context, url, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("fetch the base: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("fetch the base: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &statusError{status: resp.Status}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("fetch the base: %w", err)
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("fetch the base: %w", err)
	}
	defer f.Abort()
	if _, err := io.Copy(f, resp.Body); err != nil {
		return fmt.Errorf("fetch the base: %w", err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("fetch the base: %w", err)
	}
	return nil
}
