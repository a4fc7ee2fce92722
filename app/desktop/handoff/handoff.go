// Package handoff is the client side of the single-instance protocol of
// the desktop app (one app per data root; app/shell holds the claim): the
// instance files of a data root, whether an app holds the claim, and the
// hand-off of a launch's options to it. It needs neither GTK nor the
// shell, so the headless boof-runner hands a launch over itself before it
// would exec the window binary.
package handoff

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/boof-runner/boof-runner/backend/filelock"
)

// Launch is what a desktop launch asks of the app: its command-line options.
type Launch struct {
	// Hidden starts with the window hidden in the tray (start at login); a
	// second launch with it changes nothing.
	Hidden bool `json:"hidden,omitempty"`
	// NewTask opens the New task form.
	NewTask bool `json:"new_task,omitempty"`
	// Review opens the Review screen on ReviewID, or on the oldest task
	// waiting for review when ReviewID is "".
	Review   bool   `json:"review,omitempty"`
	ReviewID string `json:"review_id,omitempty"`
}

// Names of the instance files in the data root.
const (
	LockFile   = "instance.lock"
	SocketFile = "instance.sock"
)

// maxSocketPath is the longest path a Unix socket address takes (108 bytes
// with the terminating NUL on Linux).
const maxSocketPath = 107

// Request is the one line a later launch writes; Reply is the running
// app's answer.
type Request struct {
	Launch Launch `json:"launch"`
	PID    int    `json:"pid"`
}

// Reply is the running app's answer to a Request.
type Reply struct {
	OK bool `json:"ok"`
}

// SocketPath is the socket in the data root, or, when that path is too
// long for a Unix socket address, one named by the root's hash in the
// user's runtime directory, else in the temporary directory (the first
// that fits).
func SocketPath(root string) string {
	p := filepath.Join(root, SocketFile)
	if len(p) <= maxSocketPath {
		return p
	}
	sum := sha256.Sum256([]byte(root))
	name := "boof-runner-" + hex.EncodeToString(sum[:8]) + ".sock"
	for _, dir := range []string{os.Getenv("XDG_RUNTIME_DIR"), os.TempDir()} {
		if dir != "" && len(filepath.Join(dir, name)) <= maxSocketPath {
			return filepath.Join(dir, name)
		}
	}
	return filepath.Join(os.TempDir(), name) // too long everywhere: listen fails, logged, no hand-off
}

// Lock opens the data root's lock file and tries to lock it (filelock). It
// returns held true (and no file) when another process holds it, and an
// error when the file cannot be used as a lock at all.
func Lock(root string) (f *os.File, held bool, err error) {
	f, err = os.OpenFile(filepath.Join(root, LockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("open instance lock: %w", err)
	}
	if err := filelock.TryLock(f); err != nil {
		f.Close()
		if errors.Is(err, filelock.ErrLocked) {
			return nil, true, nil
		}
		return nil, false, fmt.Errorf("lock instance: %w", err)
	}
	return f, false, nil
}

// Unlock releases a lock Lock took and closes its file. It unlocks first:
// closing drops a flock only once no process has the descriptor, and a
// process forked at that moment keeps it until its exec.
func Unlock(f *os.File) error {
	_ = filelock.Unlock(f)
	return f.Close()
}

// Held reports whether an app holds root's claim now, without creating
// anything: a data root or lock file that does not exist is not held.
func Held(root string) bool {
	f, err := os.OpenFile(filepath.Join(root, LockFile), os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close() // releases the lock when this probe took it
	return errors.Is(filelock.TryLock(f), filelock.ErrLocked)
}

// Send hands l to the app listening on sock and waits for its answer
// (at most 5 s).
func Send(ctx context.Context, sock string, l Launch) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return err
	}
	defer c.Close()
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	if err := json.NewEncoder(c).Encode(Request{Launch: l, PID: os.Getpid()}); err != nil {
		return fmt.Errorf("send launch: %w", err)
	}
	var rep Reply
	if err := json.NewDecoder(c).Decode(&rep); err != nil {
		return fmt.Errorf("read answer: %w", err)
	}
	if !rep.OK {
		return errors.New("the running app refused the launch")
	}
	return nil
}
