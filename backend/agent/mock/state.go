package mock

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/filelock"
)

// counters keeps per-worktree run counters in a state directory, so that
// "the first N runs of a role" holds across the mock's processes. A flock
// on the directory serialises concurrent runs of the same worktree.
type counters struct {
	dir string
}

// stateDir returns the mock's state directory for a working directory:
// <base>/<hash of the absolute dir>.
func stateDir(base, workDir string) (string, error) {
	abs, err := filepath.Abs(workDir)
	if err != nil {
		return "", fmt.Errorf("state dir: %w", err)
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(base, hex.EncodeToString(sum[:8])), nil
}

// next increments and returns counter name (1 for the first call).
func (c counters) next(name string) (int, error) {
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return 0, fmt.Errorf("mock state: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(c.dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return 0, fmt.Errorf("mock state lock: %w", err)
	}
	defer lock.Close()
	if err := filelock.Lock(lock); err != nil {
		return 0, fmt.Errorf("mock state lock: %w", err)
	}
	path := filepath.Join(c.dir, name)
	n := 0
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		n, err = strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			return 0, fmt.Errorf("mock state %s: %w", name, err)
		}
	case !errors.Is(err, os.ErrNotExist):
		return 0, fmt.Errorf("mock state: %w", err)
	}
	n++
	if err := atomicfile.WriteFile(path, []byte(strconv.Itoa(n)), 0o600); err != nil {
		return 0, fmt.Errorf("mock state: %w", err)
	}
	return n, nil
}
