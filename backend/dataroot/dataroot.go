// Package dataroot finds and prepares the directory that holds Boof Runner's
// database, settings, transcripts and attachments.
package dataroot

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// EnvVar overrides the default data root when set.
const EnvVar = "BOOF_RUNNER_HOME"

// Getenv reads an environment variable; injected so tests need not mutate the
// process environment.
type Getenv func(string) string

// Resolve picks the data root: the flag value when non-empty, else
// $BOOF_RUNNER_HOME, else the OS convention for goos. The result is absolute.
func Resolve(flag string, getenv Getenv, goos string) (string, error) {
	dir := flag
	if dir == "" {
		dir = getenv(EnvVar)
	}
	if dir == "" {
		var err error
		dir, err = defaultDir(getenv, goos)
		if err != nil {
			return "", err
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("data dir %s: %w", dir, err)
	}
	return abs, nil
}

func defaultDir(getenv Getenv, goos string) (string, error) {
	home := getenv("HOME")
	switch goos {
	case "windows":
		if app := getenv("AppData"); app != "" {
			return filepath.Join(app, "Boof Runner"), nil
		}
		home = getenv("USERPROFILE")
		if home == "" {
			return "", errors.New("cannot find the data dir: %AppData% is not set")
		}
		return filepath.Join(home, "AppData", "Roaming", "Boof Runner"), nil
	case "darwin":
		if home == "" {
			return "", errors.New("cannot find the data dir: $HOME is not set")
		}
		return filepath.Join(home, "Library", "Application Support", "Boof Runner"), nil
	default:
		if x := getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
			return filepath.Join(x, "boof-runner"), nil
		}
		if home == "" {
			return "", errors.New("cannot find the data dir: neither $XDG_DATA_HOME nor $HOME is set; use --data-dir")
		}
		return filepath.Join(home, ".local", "share", "boof-runner"), nil
	}
}

// Default resolves the data root for this process.
func Default(flag string) (string, error) {
	return Resolve(flag, os.Getenv, runtime.GOOS)
}

// Ensure creates dir with mode 0700 if missing and checks that it is a
// writable directory, returning a clear error naming it otherwise.
func Ensure(dir string) error {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("data dir %s is %s, not a folder", dir, FileKind(fi.Mode()))
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create data dir %s: %w", dir, unwrapPath(err))
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("data dir %s: %w", dir, unwrapPath(err))
	}
	if !fi.IsDir() {
		return fmt.Errorf("data dir %s is not a directory", dir)
	}
	probe, err := os.CreateTemp(dir, ".write-check-*")
	if err != nil {
		return fmt.Errorf("data dir %s is not writable: %w", dir, unwrapPath(err))
	}
	name := probe.Name()
	probe.Close()
	return os.Remove(name)
}

// unwrapPath drops the *PathError wrapper so the message names the path once.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Paths names the files inside a data root.
type Paths struct{ Root string }

// Database is the SQLite file.
func (p Paths) Database() string { return filepath.Join(p.Root, "boof-runner.db") }

// Settings is the settings.json file.
func (p Paths) Settings() string { return filepath.Join(p.Root, "settings.json") }

// Transcripts is the directory of raw PTY transcripts.
func (p Paths) Transcripts() string { return filepath.Join(p.Root, "transcripts") }

// Attachments is the directory of task attachments.
func (p Paths) Attachments() string { return filepath.Join(p.Root, "attachments") }

// RunnerLock is the file locked by the one runner loop of this data root.
func (p Paths) RunnerLock() string { return filepath.Join(p.Root, "runner.lock") }

// WakeSocket is the runner's wake-up socket (package wake): another process
// that changed the store pokes it so that the runner acts at once.
func (p Paths) WakeSocket() string { return filepath.Join(p.Root, "wake.sock") }

// Journal is the directory of the accept journal: the intent of every ref
// move an accept or undo makes, written before the ref moves.
func (p Paths) Journal() string { return filepath.Join(p.Root, "journal") }

// MergeQueueWork holds the merge queue's temporary worktrees, where each
// landing is verified before its target moves.
func (p Paths) MergeQueueWork() string { return filepath.Join(p.Root, "merge-queue") }

// ForgeTokens is the file of forge tokens (mode 0600) used where no
// Secret Service keeps them (package forge's Tokens).
func (p Paths) ForgeTokens() string { return filepath.Join(p.Root, "forge-tokens.json") }

// DiskReserve is the runner's reserve of disk space (runner.Reserve).
func (p Paths) DiskReserve() string { return filepath.Join(p.Root, "disk-reserve") }

// FileKind names what a file is, for messages ("is a named pipe, not a
// file"): "a file", "a folder", "a named pipe", "a device", "a socket", "a
// symbolic link", or "not a regular file".
func FileKind(mode os.FileMode) string {
	switch {
	case mode.IsRegular():
		return "a file"
	case mode.IsDir():
		return "a folder"
	case mode&os.ModeNamedPipe != 0:
		return "a named pipe"
	case mode&os.ModeDevice != 0, mode&os.ModeCharDevice != 0:
		return "a device"
	case mode&os.ModeSocket != 0:
		return "a socket"
	case mode&os.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}
