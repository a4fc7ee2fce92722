//go:build unix

package atomicfile

import (
	"os"
	"testing"
)

// checkMode fails t unless path has mode perm.
func checkMode(t *testing.T, path string, perm os.FileMode) {
	t.Helper()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != perm {
		t.Fatalf("mode %v, %v; want %v", fi.Mode(), err, perm)
	}
}
