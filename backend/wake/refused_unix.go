//go:build unix

package wake

import (
	"errors"
	"syscall"
)

// isRefused reports a socket nobody is bound to: a stale file or an
// abstract name without a listener.
func isRefused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED)
}
