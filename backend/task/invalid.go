package task

// InvalidError is bad user input: an empty prompt, a priority out of range,
// a label with a line break. Reason names the field and what is wrong, in
// the user's terms ("prompt is empty"). errors.Is matches ErrInvalid.
type InvalidError struct {
	Reason string
}

// Error returns "invalid task: <reason>".
func (e *InvalidError) Error() string { return ErrInvalid.Error() + ": " + e.Reason }

// Unwrap lets errors.Is match ErrInvalid.
func (e *InvalidError) Unwrap() error { return ErrInvalid }
