package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/filelock"
)

// MaxFileSize is the largest settings file read, in bytes; a larger one is
// reported as malformed rather than read into memory, and a change that
// would write a larger one is refused (*TooLargeError).
const MaxFileSize = 1 << 20

// maxChangeSize is the largest settings file a change reads: a file that
// grew past MaxFileSize (an older version wrote it, or a hand) can still be
// brought back under it by unsetting its long values.
const maxChangeSize = 16 * MaxFileSize

// lockWait bounds how long a change waits for another writer's lock.
const lockWait = 30 * time.Second

// readRaw returns the user's document (empty when the file is missing).
// It opens the file without blocking, so a named pipe is refused rather
// than waited on, and refuses anything but a regular file and a file over
// MaxFileSize, as a *MalformedError.
func (f *File) readRaw() (map[string]any, error) {
	return f.readRawUpTo(MaxFileSize)
}

// readRawForChange is readRaw for a change, which reads a file of up to
// maxChangeSize bytes; what it writes must fit MaxFileSize.
func (f *File) readRawForChange() (map[string]any, error) {
	return f.readRawUpTo(maxChangeSize)
}

func (f *File) readRawUpTo(limit int64) (map[string]any, error) {
	b, err := f.readBytes(limit)
	if err != nil {
		return nil, err
	}
	return f.parse(b)
}

// parse reads the user's document from the file's bytes.
func (f *File) parse(b []byte) (map[string]any, error) {
	b = bytes.TrimPrefix(b, []byte("\ufeff")) // a byte-order mark some editors write
	if len(bytes.TrimSpace(b)) == 0 {
		return map[string]any{}, nil
	}
	if !utf8.Valid(b) {
		// The JSON decoder would turn the bytes into U+FFFD and a save
		// would write that back: refuse rather than rewrite.
		return nil, &MalformedError{Path: f.path, Problem: "is not valid UTF-8 text"}
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, &MalformedError{Path: f.path, Problem: malformedProblem(err)}
	}
	if dec.More() {
		return nil, &MalformedError{Path: f.path, Problem: "has text after the JSON object"}
	}
	raw, ok := doc.(map[string]any)
	if !ok {
		return nil, &MalformedError{Path: f.path, Problem: "is not a JSON object (it holds " + got(doc) + ")"}
	}
	if key := repeatedKey(b); key != "" {
		// The decoder keeps the last value without a word: refuse, so that
		// no setting is silently one of two.
		return nil, &MalformedError{Path: f.path, Problem: "has the key " + key + " twice; keep one of them"}
	}
	return raw, nil
}

// readBytes reads the file, at most limit bytes: nil when it is missing.
func (f *File) readBytes(limit int64) ([]byte, error) {
	file, err := os.OpenFile(f.path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, &MalformedError{Path: f.path, Problem: "is " + kind(fi.Mode()) + ", not a file"}
	}
	b, err := io.ReadAll(io.LimitReader(file, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	if int64(len(b)) > limit {
		return nil, &MalformedError{Path: f.path, Problem: fmt.Sprintf("is larger than %d KiB", limit>>10)}
	}
	return b, nil
}

// kind names a file that is not a regular one.
func kind(mode os.FileMode) string {
	switch {
	case mode.IsDir():
		return "a folder"
	case mode&os.ModeNamedPipe != 0:
		return "a named pipe"
	case mode&os.ModeDevice != 0, mode&os.ModeCharDevice != 0:
		return "a device"
	case mode&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// lock takes the exclusive lock on <path>.lock that every change holds
// from its read to its write, waiting at most lockWait. It returns the
// function that releases it.
func (f *File) lock() (func(), error) {
	lf, err := os.OpenFile(f.path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock settings: %w", err)
	}
	deadline := time.Now().Add(lockWait)
	for delay := time.Millisecond; ; delay = min(delay*2, 50*time.Millisecond) {
		err = filelock.TryLock(lf)
		if err == nil {
			return func() { // unlocked first: a process forked now keeps lf until its exec
				_ = filelock.Unlock(lf)
				lf.Close()
			}, nil
		}
		if !errors.Is(err, filelock.ErrLocked) {
			lf.Close()
			return nil, fmt.Errorf("lock settings: %w", err)
		}
		if time.Now().After(deadline) {
			lf.Close()
			return nil, fmt.Errorf("lock settings: another process held %s for %s", f.path+".lock", lockWait)
		}
		time.Sleep(delay)
	}
}

// write replaces the file atomically: a temp file in the same folder,
// synced, renamed over it. A settings.json that is a symbolic link (kept in
// a dotfiles repository, say) is written through: its target is replaced
// and the link kept (atomicfile.WriteFileThroughLinks, also to a file not made
// yet). Every change writes through it, so none can leave a
// file larger than MaxFileSize, which no reader would accept: that write is
// refused with a *TooLargeError and nothing is written.
func (f *File) write(raw map[string]any) error {
	b, err := json.MarshalIndent(raw, "", "  ")
	if err != nil {
		return fmt.Errorf("encode settings: %w", err)
	}
	b = append(b, '\n')
	if len(b) > MaxFileSize {
		return &TooLargeError{Path: f.path, Size: int64(len(b)), Limit: MaxFileSize}
	}
	if fi, err := os.Stat(f.path); err == nil && !fi.Mode().IsRegular() {
		return &MalformedError{Path: f.path, Problem: "is " + kind(fi.Mode()) + ", not a file"}
	}
	if err := atomicfile.WriteFileThroughLinks(f.path, b, 0o600); err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	return nil
}

// repeatedKey returns the dotted key of the first object key that appears
// twice in the same object of the JSON document b ("" when none does).
func repeatedKey(b []byte) string {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	type frame struct {
		object bool
		path   string
		seen   map[string]bool
		key    string // the key whose value comes next (objects)
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key == "" {
			if k, ok := tok.(string); ok { // a key
				if top.seen[k] {
					return join(top.path, k)
				}
				top.seen[k], top.key = true, k
				continue
			}
		}
		path := ""
		if top != nil {
			path = top.path
			if top.object {
				path, top.key = join(top.path, top.key), ""
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, path: path, seen: map[string]bool{}})
		case json.Delim('['):
			stack = append(stack, &frame{path: path})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
}
