//go:build unix && !linux

package wake

import "os"

// maxPath is the longest socket path macOS and the BSDs bind (sun_path,
// 104 bytes, less its terminating NUL).
const maxPath = 103

// longName is the address of a socket path too long to bind: these
// systems have no abstract names, so it is a file in the user's temporary
// folder named from the path's hash (both sides derive the same one).
func longName(path string) string { return tempSocketName(os.TempDir(), path) }
