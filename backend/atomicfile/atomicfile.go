// Package atomicfile replaces files atomically and durably; it is the one
// place that writes a file under a temporary name and renames it over its
// target (a test keeps os.Rename out of every other production file).
//
// Durability, for every write: the data goes to a temporary file in the
// target's folder (so the rename never crosses file systems), which is
// fsynced and closed, renamed over the target, and then the folder is
// fsynced. A crash at any point leaves the target with its old content or
// its new one, never a mix; once a write has returned, the new content
// survives a power loss. A failed write leaves no temporary file behind,
// except where the process died mid-way: temporary names start with a dot
// and the target's name, and end in .tmp-<random>.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/failpoint"
)

// FailBeforeRename and the target's name (FailBeforeRename+"settings.json")
// is the failpoint between a temporary file's last byte synced and its
// rename over the target: where a signal finds a write half done.
const FailBeforeRename = "atomicfile:before-rename:"

// maxBase is how much of the target's name a temporary name repeats, so
// that a target whose name is near the system's limit still gets one.
const maxBase = 64

// WriteFile replaces the file at path with data, with permissions perm,
// durably (see the package comment). It returns the file system's errors;
// one about the temporary file is a *fs.PathError naming path.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	t, err := Create(path)
	if err != nil {
		return err
	}
	defer t.Abort()
	if _, err := t.Write(data); err != nil {
		return err
	}
	if err := t.Chmod(perm); err != nil {
		return err
	}
	return t.Commit()
}

// Temp is a file being written under a temporary name beside the file it
// will replace. Write to it, then Commit; Abort (deferred) removes it when
// it was not committed.
type Temp struct {
	f      *os.File
	target string
	closed bool
	done   bool
}

// Create starts a temporary file beside path, created with mode 0600. It
// returns a *fs.PathError naming path when the folder refuses it. A path
// that is a symbolic link is replaced by the file, never written through:
// the files the program keeps for itself (an agent's home, a worktree's
// records, attachments) must not land where a link planted there leads.
// A file the user names and may keep linked (settings, tokens) goes
// through WriteFileThroughLinks.
func Create(path string) (*Temp, error) {
	base := filepath.Base(path)
	if len(base) > maxBase {
		cut := maxBase
		for cut > 0 && !utf8.RuneStart(base[cut]) {
			cut-- // a name cut inside a character is refused where names are UTF-8
		}
		base = base[:cut]
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+base+".tmp-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &fs.PathError{Op: "create", Path: path, Err: err}
	}
	return &Temp{f: f, target: path}, nil
}

// maxLinks bounds the symbolic links followed to a target (as Linux does).
const maxLinks = 40

// WriteFileThroughLinks is WriteFile where path's symbolic links lead
// (ThroughLinks): for a file the user names and may keep linked.
func WriteFileThroughLinks(path string, data []byte, perm fs.FileMode) error {
	to, err := ThroughLinks(path)
	if err != nil {
		return err
	}
	return WriteFile(to, data, perm)
}

// ThroughLinks returns where path leads when it is a symbolic link (each
// relative link read from the link's folder; a dangling link gives the
// file it names), else path: writing there keeps the user's link, as a
// settings file linked from a dotfiles folder stays linked. A loop of
// links is a *fs.PathError (ELOOP).
func ThroughLinks(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil // missing or not a link: the write says what is wrong
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", &fs.PathError{Op: "create", Path: path, Err: err}
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", &fs.PathError{Op: "create", Path: path, Err: syscall.ELOOP}
}

// Name returns the temporary file's path.
func (t *Temp) Name() string { return t.f.Name() }

// Write writes p to the temporary file.
func (t *Temp) Write(p []byte) (int, error) { return t.f.Write(p) }

// Chmod sets the permissions the file will have.
func (t *Temp) Chmod(perm fs.FileMode) error {
	if t.closed {
		return os.Chmod(t.f.Name(), perm)
	}
	return t.f.Chmod(perm)
}

// Close fsyncs and closes the temporary file, which stays under its
// temporary name until Commit: what a caller does that writes several
// files first and renames them together later. Closing twice is a no-op.
func (t *Temp) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	if err := t.f.Sync(); err != nil {
		t.f.Close()
		return err
	}
	return t.f.Close()
}

// Commit closes the file (Close), renames it over its target and fsyncs
// the target's folder. After an error the target is as it was and the
// temporary file is removed, unless the rename was made and only the
// folder's fsync failed (the error says so).
func (t *Temp) Commit() error {
	if err := t.Close(); err != nil {
		t.Abort()
		return err
	}
	failpoint.Hit(FailBeforeRename + filepath.Base(t.target))
	if err := os.Rename(t.f.Name(), t.target); err != nil {
		t.Abort()
		return err
	}
	t.done = true
	return SyncDir(filepath.Dir(t.target))
}

// Abort removes the temporary file unless it was committed; it is safe to
// call more than once and after Commit.
func (t *Temp) Abort() {
	if t.done {
		return
	}
	t.done = true
	if !t.closed {
		t.closed = true
		t.f.Close()
	}
	os.Remove(t.f.Name())
}

// SyncDir fsyncs the folder dir, making the names created, renamed or
// removed in it durable. A file system that cannot sync a folder (EINVAL,
// or unsupported) is not an error: there is nothing more to be had. On
// Windows a folder cannot be flushed (opening it for FlushFileBuffers is
// refused) and NTFS journals a rename itself: SyncDir checks only that
// dir is a folder there.
func SyncDir(dir string) error { return syncDir(dir) }
