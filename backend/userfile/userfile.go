// Package userfile opens the files a user names on a command line or in a
// task file: an attachment, a command template, a task file to import. It
// looks at what the path is before opening it and opens only a regular
// file, so a named pipe never blocks the command, a device or a socket is
// never read, and a folder is named as one. Every problem is an *Error
// that backend/usererr words for the user.
package userfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Role says what a file is for; the user's message names it.
type Role string

// The roles of a file a user names.
const (
	Attachment  Role = "attachment"
	TaskFile    Role = "task file"
	CommandFile Role = "command template file"
	// Prompt, Answer and CommandText are texts read from standard input.
	Prompt      Role = "prompt"
	Answer      Role = "answer"
	CommandText Role = "command template"
	// Kept is a file the program keeps itself (in the data root, a
	// repository's git folder, an agent CLI's configuration), read with
	// ReadFile.
	Kept Role = "file"
)

// StdinPath is the Path of an *Error about standard input.
const StdinPath = "-"

// ErrInterrupted ends a command that was waiting for input (standard
// input, a pipe) when the process got SIGINT or SIGTERM; nothing was
// changed.
var ErrInterrupted = errors.New("interrupted while waiting for input")

// Problem is what is wrong with a path.
type Problem string

// The problems Open reports.
const (
	// Missing: nothing is at the path (or a folder on it is a file).
	Missing Problem = "missing"
	// Denied: the user may not read it (or a folder on the way).
	Denied Problem = "denied"
	// NotRegular: it is a folder, a named pipe, a device, a socket; Kind says which.
	NotRegular Problem = "not_regular"
	// Loop: a symbolic link on the path points back into itself.
	Loop Problem = "loop"
	// TooLarge: it is larger than the caller's limit (Limit).
	TooLarge Problem = "too_large"
	// Outside: it resolves outside the folder it must stay in (Within).
	Outside Problem = "outside"
	// BadEncoding: a file sent by the window (base64) does not decode;
	// Path is its name, "" when the window gave none.
	BadEncoding Problem = "bad_encoding"
	// Unreadable: any other error of the system (Err).
	Unreadable Problem = "unreadable"
)

// Kind is what a path that is not a regular file is.
type Kind string

// The kinds of paths that are not regular files.
const (
	Folder    Kind = "folder"
	NamedPipe Kind = "named pipe"
	Device    Kind = "device"
	Socket    Kind = "socket"
	Symlink   Kind = "symbolic link"
	Irregular Kind = "irregular"
)

// Error is a file a user named that cannot be used.
type Error struct {
	Role    Role
	Path    string
	Problem Problem
	// Kind is set for NotRegular.
	Kind Kind
	// Limit is set for TooLarge, in bytes.
	Limit int64
	// Within is set for Outside: the folder the path had to stay in, and
	// Target is where it leads.
	Within, Target string
	// Err is the system's error, if any.
	Err error
}

// Error is a plain description for logs; users see usererr's sentence.
func (e *Error) Error() string {
	s := fmt.Sprintf("%s %s: %s", e.Role, e.Path, e.Problem)
	if e.Kind != "" {
		s += " (" + string(e.Kind) + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the system's error.
func (e *Error) Unwrap() error { return e.Err }

// KindOf names what mode is when it is not a regular file ("" when it is).
func KindOf(mode fs.FileMode) Kind {
	switch {
	case mode.IsRegular():
		return ""
	case mode.IsDir():
		return Folder
	case mode&fs.ModeNamedPipe != 0:
		return NamedPipe
	case mode&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return Device
	case mode&fs.ModeSocket != 0:
		return Socket
	case mode&fs.ModeSymlink != 0:
		return Symlink
	}
	return Irregular
}

// Check looks at path (following symbolic links) without opening it and
// returns an *Error unless it is a regular file the user may read.
func Check(path string, role Role) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, classify(path, role, err)
	}
	if k := KindOf(fi.Mode()); k != "" {
		return nil, &Error{Role: role, Path: path, Problem: NotRegular, Kind: k}
	}
	return fi, nil
}

// Open opens path for reading when it is a regular file: it is looked at
// first (Check), then opened without blocking (a path swapped for a named
// pipe meanwhile does not hold the command) and looked at again through the
// open file. Any problem is an *Error.
func Open(path string, role Role) (*os.File, error) {
	if _, err := Check(path, role); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, classify(path, role, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, classify(path, role, err)
	}
	if k := KindOf(fi.Mode()); k != "" {
		f.Close()
		return nil, &Error{Role: role, Path: path, Problem: NotRegular, Kind: k}
	}
	return f, nil
}

// Read reads the regular file at path, at most limit bytes (a TooLarge
// *Error beyond).
func Read(path string, role Role, limit int64) ([]byte, error) {
	f, err := Open(path, role)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, path, role, limit)
}

// readLimited reads f to its end, at most limit bytes (a TooLarge *Error
// beyond).
func readLimited(f *os.File, path string, role Role, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, classify(path, role, err)
	}
	if int64(len(b)) > limit {
		return nil, &Error{Role: role, Path: path, Problem: TooLarge, Limit: limit}
	}
	return b, nil
}

// ReadFile reads a file the program keeps, as os.ReadFile does, but only
// a regular file: it is opened without blocking, so a named pipe put in
// its place (by an agent, a user, another program) never holds the
// process, and a folder, device or socket is refused as a NotRegular
// *Error; beyond limit bytes it is a TooLarge *Error. A missing file is an
// *Error that wraps the system's, so errors.Is(err, fs.ErrNotExist) holds
// as it does for os.ReadFile. It costs what os.ReadFile costs (one open,
// one fstat), so hot paths (refs, worktree metadata) use it too.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, fi, err := openKept(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, &Error{Role: Kept, Path: path, Problem: TooLarge, Limit: limit}
	}
	return readLimited(f, path, Kept, limit)
}

// KeptLimit bounds ReadKept: larger than any file the program keeps.
const KeptLimit int64 = 1 << 30

// ReadKept is ReadFile up to KeptLimit.
func ReadKept(path string) ([]byte, error) { return ReadFile(path, KeptLimit) }

// OpenKept opens a file the program keeps for reading, as ReadFile does
// (without blocking; a regular file only), for a caller that streams it.
func OpenKept(path string) (*os.File, error) {
	f, _, err := openKept(path)
	return f, err
}

func openKept(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, classify(path, Kept, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, classify(path, Kept, err)
	}
	if k := KindOf(fi.Mode()); k != "" {
		f.Close()
		return nil, nil, &Error{Role: Kept, Path: path, Problem: NotRegular, Kind: k}
	}
	return f, fi, nil
}

// classify turns a system error about path into an *Error.
func classify(path string, role Role, err error) *Error {
	e := &Error{Role: role, Path: path, Problem: Unreadable, Err: err}
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		e.Problem = Missing
	case errors.Is(err, fs.ErrPermission):
		e.Problem = Denied
	case errors.Is(err, syscall.ELOOP):
		e.Problem = Loop
	case errors.Is(err, syscall.EISDIR):
		e.Problem, e.Kind = NotRegular, Folder
	}
	return e
}

// OpenWithin opens path like Open when it resolves, symbolic links
// followed, to a file inside the folder within; a path that leads out of it
// is an Outside *Error naming where it leads, and nothing is opened.
func OpenWithin(path, within string, role Role) (*os.File, error) {
	if _, err := Check(path, role); err != nil {
		return nil, err
	}
	root, err := filepath.EvalSymlinks(within)
	if err != nil {
		return nil, classify(within, role, err)
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, classify(path, role, err)
	}
	if rel, err := filepath.Rel(root, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, &Error{Role: role, Path: path, Problem: Outside, Within: within, Target: target}
	}
	f, err := Open(target, role)
	if err != nil {
		return nil, err
	}
	// The file opened must be the one path names now: a link swapped
	// between the look and the open is refused rather than followed.
	opened, err1 := f.Stat()
	named, err2 := os.Stat(path)
	if err1 != nil || err2 != nil || !os.SameFile(opened, named) {
		f.Close()
		return nil, &Error{Role: role, Path: path, Problem: Outside, Within: within, Target: target}
	}
	return f, nil
}
