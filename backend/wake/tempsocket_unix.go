//go:build unix

package wake

import "path/filepath"

// tempSocketName is where the socket of a path too long to bind goes on a
// system without abstract names: boof-runner-wake-<hash>.sock in tmp (on
// macOS a per-user folder of about 50 characters), or in /tmp when even
// that is longer than a socket path may be.
func tempSocketName(tmp, path string) string {
	name := "boof-runner-wake-" + pathHash(path, 8) + ".sock"
	if p := filepath.Join(tmp, name); len(p) <= 103 {
		return p
	}
	return filepath.Join("/tmp", name)
}
