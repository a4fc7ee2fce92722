package app

import (
	"strings"

	"github.com/boof-runner/boof-runner/backend/usererr"
)

// userError maps a backend error to the one-line message the UI shows,
// through the one vocabulary of backend/usererr (the CLI shows the same).
func userError(err error) error { return usererr.Wrap(err) }

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
