// Package usererr is the one vocabulary of errors the user sees. Describe
// maps a backend error to one sentence in the user's terms and a stable
// code, through errors.Is and errors.As over the typed errors of the
// backend packages; no error text is parsed. The bound services (app/) and
// the headless commands (cli) both show its messages.
package usererr

import (
	"errors"
	"fmt"
	"strconv"
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
// typed errors come before the sentinels they wrap. (Set in init: an Edge
// wrapping another error is described through Describe.)
var describers []func(error) (string, Code, bool)

func init() {
	describers = []func(error) (string, Code, bool){
		describeUserError,
		describeEdge,
		describeData,
		describeNotFound,
		describeStatus,
		describeReview,
		describeUnknownBase,
		describeIntake,
		describeLocked,
		describeSchedule,
		describeInvalid,
		describeSettings,
		describeForge,
		describeGit,
		describeFile,
	}
}

func describeUserError(err error) (string, Code, bool) {
	var ue *Error
	if errors.As(err, &ue) {
		return ue.Message, ue.Code, true
	}
	return "", "", false
}

// sentence makes s one line: whitespace runs (newlines included) become
// one space, echoed input is clipped (Clip), the first letter is upper case
// unless the text starts with a name (a file, a key, an id: a first word
// that is not made of letters alone, which keeps its case), and the text
// ends with a period (or the ? or ! it already has).
func sentence(s string) string {
	s = Clip(strings.Join(strings.Fields(s), " "))
	if s == "" {
		return "Something went wrong."
	}
	if startsWithWord(s) {
		r, n := utf8.DecodeRuneInString(s)
		s = string(unicode.ToUpper(r)) + s[n:]
	}
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
		s += "."
	}
	return s
}

// startsWithWord reports whether s starts with a word of letters alone
// (up to a space, a comma, a semicolon, or a colon that ends the word): a
// word of ours, not a file name ("notes.txt"), a setting
// ("runner.concurrency"), an id or an address ("https://…", "file:///…",
// "javascript:…", whose colon is followed by no space).
func startsWithWord(s string) bool {
	end := strings.IndexAny(s, " ,;")
	if end < 0 {
		end = len(s)
	}
	if c := strings.IndexByte(s[:end], ':'); c >= 0 {
		if c+1 < end {
			return false
		}
		end = c
	}
	if end == 0 {
		return false
	}
	for _, r := range s[:end] {
		if !unicode.IsLetter(r) && r != '\'' {
			return false
		}
	}
	return true
}

// visible writes each control character but a newline and a tab, and
// each byte that is not UTF-8, as its Go escape; other text is kept.
func visible(s string) string {
	clean := utf8.ValidString(s)
	for _, r := range s {
		if clean && isHidden(r) {
			clean = false
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isHidden(r):
			b.WriteString(strings.Trim(strconv.QuoteRune(r), "'"))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isHidden: a control character other than a newline or a tab.
func isHidden(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }

// Echo limits: a run of text without spaces longer than maxEcho bytes is
// shortened to its start, and a message longer than maxMessage bytes to its
// start and end.
const (
	maxEcho    = 120
	maxMessage = 2000
)

// Clip shortens what a message echoes of the user's input, so a 100 KB id,
// label or name is not printed whole: every run of text without a space
// longer than maxEcho bytes keeps its first 60 bytes and says how long it
// was, and a message still longer than maxMessage keeps its start and end.
// Every message of Describe passes through it, and so do the CLI's usage
// errors: it is the one place echoed input is truncated, and the one
// place it is made visible: a control character (a terminal escape, NUL,
// a backspace) or a byte that is not UTF-8 is shown as its Go escape
// (\x1b, \x00, \xff), so a sentence cannot move a terminal's cursor,
// retitle its window or hide its own start.
func Clip(s string) string {
	s = visible(s)
	if len(s) <= maxEcho {
		return s
	}
	var b strings.Builder
	for i, word := range strings.Split(s, " ") {
		if i > 0 {
			b.WriteByte(' ')
		}
		if len(word) > maxEcho {
			word = prefix(word, 60) + fmt.Sprintf("…(%d bytes)", len(word))
		}
		b.WriteString(word)
	}
	s = b.String()
	if len(s) > maxMessage {
		head := prefix(s, maxMessage/2)
		tail := s[len(s)-maxMessage/4:]
		for !utf8.ValidString(tail) && len(tail) > 0 {
			tail = tail[1:]
		}
		s = head + " … " + tail
	}
	return s
}

// prefix is s cut to at most n bytes at a character boundary.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
