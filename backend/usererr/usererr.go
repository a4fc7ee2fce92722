// Package usererr is the one vocabulary of errors the user sees. Describe
// maps a backend error to one sentence in the user's terms and a stable
// code, through errors.Is and errors.As over the typed errors of the
// backend packages; no error text is parsed. The bound services (app/) and
// the headless commands (cli) both show its messages.
package usererr

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Code names a class of error. Codes are stable: tests and scripts may
// branch on them.
type Code string

// The codes Describe returns.
const (
	// NotFound: a task, command, attachment or execution does not exist.
	NotFound Code = "not_found"
	// IllegalTransition: a status change the task's status does not allow.
	IllegalTransition Code = "illegal_transition"
	// WrongStatus: an operation the task's status does not allow.
	WrongStatus Code = "wrong_status"
	// Conflict: an accept that cannot be made without conflicts.
	Conflict Code = "conflict"
	// DirtyCheckout: the target checkout has uncommitted changes.
	DirtyCheckout Code = "dirty_checkout"
	// TargetMoved: the target branch moved since the accept was planned.
	TargetMoved Code = "target_moved"
	// UnknownBase: a task's base ref names no branch or commit.
	UnknownBase Code = "unknown_base"
	// RunnerLocked: another process runs the queue of this data root.
	RunnerLocked Code = "runner_locked"
	// Git: a git command failed.
	Git Code = "git"
	// Duplicate: a task file imported before, imported again without --again.
	Duplicate Code = "duplicate"
	// InvalidInput: bad user input for a task, command or answer.
	InvalidInput Code = "invalid_input"
	// InvalidSettings: settings that are malformed or hold invalid values,
	// or a settings key that does not exist.
	InvalidSettings Code = "invalid_settings"
	// Database: the database file cannot be used as it is (damaged, not a
	// database, written by a newer version, a failed upgrade).
	Database Code = "database"
	// DiskFull: a write found no space left.
	DiskFull Code = "disk_full"
	// Other: any other error; its own text is shown.
	Other Code = "error"
)

// Error is an error as the user sees it: Error returns the message; Unwrap
// returns the error it describes.
type Error struct {
	Code    Code
	Message string
	Err     error
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the described error.
func (e *Error) Unwrap() error { return e.Err }

// Wrap returns nil for nil and otherwise an *Error carrying Describe's
// message and code.
func Wrap(err error) error {
	if err == nil {
		return nil
	}
	var ue *Error
	if errors.As(err, &ue) {
		return ue
	}
	msg, code := Describe(err)
	return &Error{Code: code, Message: msg, Err: err}
}

// Describe returns the one-line message the user sees for err (one
// sentence, capitalised, ending with a period) and its code. It returns
// "", "" for nil.
func Describe(err error) (string, Code) {
	if err == nil {
		return "", ""
	}
	for _, d := range describers {
		if msg, code, ok := d(err); ok {
			return sentence(msg), code
		}
	}
	return sentence(err.Error()), Other
}

// describers are tried in order; the first that knows err wins. Specific
// typed errors come before the sentinels they wrap.
var describers = []func(error) (string, Code, bool){
	describeUserError,
	describeData,
	describeNotFound,
	describeStatus,
	describeReview,
	describeUnknownBase,
	describeLocked,
	describeSchedule,
	describeInvalid,
	describeSettings,
	describeGit,
}

func describeUserError(err error) (string, Code, bool) {
	var ue *Error
	if errors.As(err, &ue) {
		return ue.Message, ue.Code, true
	}
	return "", "", false
}

// sentence makes s one line: whitespace runs (newlines included) become
// one space, the first letter is upper case and the text ends with a
// period (or the ? or ! it already has).
func sentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "Something went wrong."
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}
