package settings

import (
	"fmt"
	"strings"
)

// ValidationError lists every invalid key of a settings document, in the
// order of the schema, so the user can fix them all at once. errors.Is
// matches ErrInvalid and errors.As finds the first *KeyError.
type ValidationError struct {
	// Keys holds one entry per invalid key; it is never empty.
	Keys []*KeyError
}

// Error returns "invalid settings: <key> <reason>; <key> <reason>".
func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Keys))
	for i, k := range e.Keys {
		parts[i] = k.Key + " " + k.Reason
	}
	return ErrInvalid.Error() + ": " + strings.Join(parts, "; ")
}

// Unwrap returns the key errors, so errors.Is and errors.As see each one.
func (e *ValidationError) Unwrap() []error {
	out := make([]error, len(e.Keys))
	for i, k := range e.Keys {
		out[i] = k
	}
	return out
}

// invalid returns nil for no problems and a *ValidationError otherwise.
func invalid(keys []*KeyError) error {
	if len(keys) == 0 {
		return nil
	}
	return &ValidationError{Keys: keys}
}

// MalformedError is a settings file that is not a JSON object. errors.Is
// matches ErrMalformed.
type MalformedError struct {
	// Path is the settings file.
	Path string
	// Problem says what is wrong, completing "the settings file <path> …":
	// "is not valid JSON (unexpected EOF)", "is not a JSON object".
	Problem string
}

// Error returns "malformed settings file <path>: <problem>".
func (e *MalformedError) Error() string {
	return ErrMalformed.Error() + " " + e.Path + ": " + e.Problem
}

// Unwrap lets errors.Is match ErrMalformed.
func (e *MalformedError) Unwrap() error { return ErrMalformed }

// TooLargeError is a change that would make the settings file larger than
// its limit, which every reader refuses; nothing was written.
type TooLargeError struct {
	// Path is the settings file.
	Path string
	// Size is what the file would have held, in bytes.
	Size int64
	// Limit is the largest file readers accept (MaxFileSize).
	Limit int64
}

// Error returns "settings file <path> would be <size> bytes, over the limit of <limit>".
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("settings file %s would be %d bytes, over the limit of %d", e.Path, e.Size, e.Limit)
}
