//go:build unix

package dataroot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The data root's mode and a parent without write permission are POSIX
// matters: Windows keeps no mode bits (its read-only attribute does not
// stop files being made in a folder); there the data root's privacy is the
// user profile's access list.

func TestEnsureCreates0700(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "root")
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode = %v, %v", fi.Mode(), err)
	}
}

func TestEnsureReadOnlyParent(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions (TestEnsureUnderAFile covers a parent that cannot hold the root)")
	}
	parent := t.TempDir()
	os.Chmod(parent, 0o500)
	defer os.Chmod(parent, 0o700)
	err := Ensure(filepath.Join(parent, "root"))
	if err == nil || !strings.Contains(err.Error(), "cannot create data dir") {
		t.Fatalf("got %v", err)
	}
}
