package app

import (
	"errors"
	"strings"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// userError maps a backend error to the one-line message the UI shows. This
// is the one place error types become user-facing text.
func userError(err error) error {
	if err == nil {
		return nil
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		// "task \"x\": not found", "command \"y\": not found": say what is missing.
		what, _, _ := strings.Cut(err.Error(), ":")
		if strings.HasPrefix(what, "task ") {
			return errors.New("That task no longer exists.")
		}
		return errors.New(capitalize(what) + " does not exist.")
	case errors.Is(err, task.ErrIllegalTransition):
		var te *task.TransitionError
		if errors.As(err, &te) {
			return errors.New("A " + string(te.From) + " task cannot become " + string(te.To) + ".")
		}
	case errors.Is(err, task.ErrInvalid):
		msg := strings.TrimPrefix(err.Error(), task.ErrInvalid.Error()+": ")
		return errors.New(capitalize(msg) + ".")
	}
	return errors.New(capitalize(firstLine(err.Error())))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
