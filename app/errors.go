package app

import "github.com/boof-runner/boof-runner/backend/usererr"

// userError maps a backend error to the one-line message the UI shows,
// through the one vocabulary of backend/usererr (the CLI shows the same).
func userError(err error) error { return usererr.Wrap(err) }
