package atomicfile

import (
	"os"
	"testing"
)

// checkMode: Windows keeps no mode bits (a file is read-only or not), so
// only that the file is there and writable is checked.
func checkMode(t *testing.T, path string, perm os.FileMode) {
	t.Helper()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm()&0o200 == 0 {
		t.Fatalf("mode %v, %v; want a writable file", fi.Mode(), err)
	}
}
