package gitx

import (
	"errors"
	"strings"
)

// IsNoIdentity reports whether err is a git command that failed because no
// user name or e-mail is configured for the commits it makes, so the
// caller may retry with an explicit identity in the environment.
func IsNoIdentity(err error) bool {
	var ge *Error
	if !errors.As(err, &ge) {
		return false
	}
	s := ge.Stderr
	return strings.Contains(s, "Please tell me who you are") ||
		strings.Contains(s, "empty ident name") ||
		strings.Contains(s, "unable to auto-detect email address")
}
