package task

import (
	"fmt"
	"io"
	"time"
)

// idAlphabet is Crockford's base32 in lower case: URL- and branch-safe and
// sorted in ASCII order, so ids sort by creation time.
const idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// NewID returns a 16-character task id: 10 characters of milliseconds since
// the Unix epoch followed by 6 random characters read from entropy. Ids sort
// lexically by creation time. It returns an error only if entropy fails.
func NewID(now time.Time, entropy io.Reader) (string, error) {
	var b [16]byte
	ms := uint64(now.UnixMilli())
	for i := 9; i >= 0; i-- {
		b[i] = idAlphabet[ms&31]
		ms >>= 5
	}
	var r [6]byte
	if _, err := io.ReadFull(entropy, r[:]); err != nil {
		return "", fmt.Errorf("task id entropy: %w", err)
	}
	for i, c := range r {
		b[10+i] = idAlphabet[c&31]
	}
	return string(b[:]), nil
}

// ValidID reports whether s has the shape of a task id. Ids are used in branch
// names and file paths, so anything else is refused before it reaches them.
func ValidID(s string) bool {
	if len(s) != 16 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z') || c == 'i' || c == 'l' || c == 'o' || c == 'u' {
			return false
		}
	}
	return true
}
