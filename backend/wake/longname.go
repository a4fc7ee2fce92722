package wake

import (
	"crypto/sha256"
	"encoding/hex"
)

// pathHash is the first n bytes of path's SHA-256, in hex.
func pathHash(path string, n int) string {
	sum := sha256.Sum256([]byte(path))
	return hex.EncodeToString(sum[:n])
}
