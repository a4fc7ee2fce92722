package wake

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// On Windows the path names the event the way Windows names files: a
// poke of another spelling of the same path (case, separators, ..)
// reaches the listener, a poke of another data root's path does not, and
// nothing is made at the path.
func TestEventFollowsWindowsPaths(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "wake.sock")
	_, pokes := listen(t, path)
	same := strings.ToUpper(filepath.Join(dir, "sub", "..")) + `/WAKE.SOCK`
	if err := Poke(same); err != nil {
		t.Fatal(err)
	}
	waitPoke(t, pokes)
	if err := Poke(filepath.Join(dir, "other", "wake.sock")); !errors.Is(err, ErrNoListener) {
		t.Fatalf("poke of another root: %v, want ErrNoListener", err)
	}
	if entries, err := filepath.Glob(filepath.Join(dir, "*")); err != nil || len(entries) != 0 {
		t.Fatalf("files made beside the path: %v %v", entries, err)
	}
}
