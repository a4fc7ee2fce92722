package gitx

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. A failed git command is an *Error; errors.Is matches it
// against these according to git's exit status and message.
var (
	// ErrNotARepo: the directory is not inside a git repository.
	ErrNotARepo = errors.New("not a git repository")
	// ErrUnknownRef: a revision, ref or object does not resolve.
	ErrUnknownRef = errors.New("unknown ref")
	// ErrBadRev: a revision argument was refused before git ran (empty,
	// leading dash, control characters).
	ErrBadRev = errors.New("bad revision argument")
	// ErrIndexLocked: another process holds the index.lock file.
	ErrIndexLocked = errors.New("index is locked")
	// ErrRefLocked: another process holds a ref's lock file.
	ErrRefLocked = errors.New("ref is locked")
	// ErrRefMoved: a compare-and-swap ref update lost: the ref did not hold
	// the expected old value (or existed when it was expected not to).
	ErrRefMoved = errors.New("ref moved")
	// ErrConflict: a merge cannot be made without conflicts.
	ErrConflict = errors.New("merge conflict")
	// ErrNoDir: the directory for -C is empty or does not exist.
	ErrNoDir = errors.New("no such directory for git -C")
	// ErrWorktreeRace: git read the registration of a linked worktree that
	// another git process was creating at that moment (git does not lock
	// worktree creation); trying again succeeds.
	ErrWorktreeRace = errors.New("another worktree was being created")
	// ErrTimeout: the command ran past the Git's deadline (WithTimeout) and
	// was stopped with its process group (a hook or filter that hangs).
	ErrTimeout = errors.New("git command timed out")
	// ErrBareRepo: the directory is a bare repository (no working tree)
	// and the command needs one.
	ErrBareRepo = errors.New("bare repository")
	// ErrAuthRequired: the remote wants credentials git could not supply
	// without asking (no credential helper or agent had them, or they were
	// refused): git never prompts here (GIT_TERMINAL_PROMPT=0, no askpass,
	// no terminal for network commands).
	ErrAuthRequired = errors.New("remote needs credentials")
	// ErrRemoteForbidden: the remote refused access (HTTP 403): the
	// credentials are not allowed to push there.
	ErrRemoteForbidden = errors.New("remote refused access")
	// ErrRemoteNotFound: the remote's URL names no repository (or none the
	// credentials may see).
	ErrRemoteNotFound = errors.New("remote repository not found")
	// ErrNetwork: the remote could not be reached (name resolution, a
	// refused or timed-out connection, a stalled transfer).
	ErrNetwork = errors.New("remote unreachable")
)

// Error is a git command that exited non-zero.
type Error struct {
	// Dir is the directory given to -C.
	Dir string
	// Args are the arguments after -C Dir.
	Args []string
	// ExitCode is git's exit status.
	ExitCode int
	// Stderr is git's trimmed standard error.
	Stderr string
}

// Error returns "git <verb>: exit N: <first line of stderr>".
func (e *Error) Error() string {
	if msg := e.Detail(); msg != "" {
		return fmt.Sprintf("git %s: exit %d: %s", e.Verb(), e.ExitCode, msg)
	}
	return fmt.Sprintf("git %s: exit %d", e.Verb(), e.ExitCode)
}

// Verb returns the git subcommand that failed ("merge", "worktree").
func (e *Error) Verb() string { return verb(e.Args) }

// Detail returns the first line of git's standard error, "" when it wrote
// nothing.
func (e *Error) Detail() string {
	msg, _, _ := strings.Cut(e.Stderr, "\n")
	return strings.TrimSpace(msg)
}

// Is reports whether e is of the kind named by target, one of the
// package's sentinel errors.
func (e *Error) Is(target error) bool {
	s := e.Stderr
	switch target {
	case ErrNoDir:
		return strings.Contains(s, "cannot change to")
	case ErrNotARepo:
		return strings.Contains(strings.ToLower(s), "not a git repository")
	case ErrBareRepo:
		return strings.Contains(s, "must be run in a work tree")
	case ErrUnknownRef:
		for _, m := range unknownRefMarks {
			if strings.Contains(s, m) {
				return true
			}
		}
		return false
	case ErrIndexLocked:
		return strings.Contains(s, "index.lock") && strings.Contains(s, "File exists")
	case ErrRefLocked:
		return !strings.Contains(s, "index.lock") && strings.Contains(s, ".lock': File exists")
	case ErrWorktreeRace:
		// Reading another's half-written registration, or a registration
		// of ours that another git's prune took while it was being made
		// (then the new worktree's checkout finds no repository there).
		return strings.Contains(s, "/worktrees/") &&
			(strings.Contains(s, "failed to read") || strings.Contains(s, "could not open") && strings.Contains(s, "for writing") ||
				strings.Contains(s, "not a git repository: "))
	case ErrAuthRequired:
		return containsAny(s, authMarks)
	case ErrRemoteForbidden:
		return strings.Contains(s, "returned error: 403")
	case ErrRemoteNotFound:
		return containsAny(s, notFoundMarks) && !containsAny(s, authMarks)
	case ErrNetwork:
		return containsAny(s, networkMarks)
	case ErrRefMoved:
		return strings.Contains(s, "cannot lock ref") &&
			(strings.Contains(s, "but expected") ||
				strings.Contains(s, "reference already exists") ||
				strings.Contains(s, "unable to resolve reference"))
	}
	return false
}

var unknownRefMarks = []string{
	"unknown revision", "bad revision", "Needed a single revision",
	"not a valid object name", "invalid reference", "not a valid ref",
	"bad object", "not a commit", "not a valid branch name",
}

// What git (and ssh, curl) print for each failure to reach a remote.
var (
	authMarks = []string{"terminal prompts disabled", "could not read Username", "could not read Password",
		"Authentication failed", "Permission denied (publickey", "Host key verification failed",
		"read_passphrase", "returned error: 401", "Invalid username or password"}
	notFoundMarks = []string{"does not appear to be a git repository", "Repository not found",
		"' not found", "returned error: 404", "No such remote"}
	networkMarks = []string{"Could not resolve host", "Failed to connect to", "Connection refused",
		"Connection timed out", "Operation timed out", "Network is unreachable", "Couldn't connect to server",
		"Could not resolve hostname", "operation too slow", "Connection reset", "Empty reply from server"}
)

func containsAny(s string, marks []string) bool {
	for _, m := range marks {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

func isLockBusy(err error) bool {
	return errors.Is(err, ErrIndexLocked) || errors.Is(err, ErrRefLocked)
}

// CheckRev refuses a revision argument that could be taken as an option or
// is otherwise not a revision: empty, starting with '-', or holding control
// characters. It returns an error wrapping ErrBadRev.
func CheckRev(rev string) error {
	if rev == "" {
		return fmt.Errorf("empty revision: %w", ErrBadRev)
	}
	if strings.HasPrefix(rev, "-") {
		return fmt.Errorf("revision %q starts with '-': %w", rev, ErrBadRev)
	}
	for _, r := range rev {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("revision %q holds a control character: %w", rev, ErrBadRev)
		}
	}
	return nil
}
