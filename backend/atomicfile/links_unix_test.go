//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// A target that is a symbolic link is written where the link leads, and
// the link stays: through a relative link, a chain of two, and to a file
// not made yet. A loop of links is refused and writes nothing.
func TestWriteFileKeepsALink(t *testing.T) {
	d := t.TempDir()
	real := filepath.Join(d, "dotfiles", "settings.json")
	os.Mkdir(filepath.Dir(real), 0o700)
	os.WriteFile(real, []byte("old"), 0o600)
	link, chain := filepath.Join(d, "settings.json"), filepath.Join(d, "chain.json")
	os.Symlink("dotfiles/settings.json", link)
	os.Symlink("settings.json", chain)
	if err := WriteFile(chain, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Fatalf("the link's target holds %q", b)
	}
	for _, l := range []string{link, chain} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a link: %v %v", l, fi, err)
		}
	}
	dangling := filepath.Join(d, "dangling")
	os.Symlink("dotfiles/later.json", dangling)
	if err := WriteFile(dangling, []byte("made"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(d, "dotfiles", "later.json")); string(b) != "made" {
		t.Fatalf("the dangling link's target holds %q", b)
	}
	loop := filepath.Join(d, "loop")
	os.Symlink("loop", loop)
	if err := WriteFile(loop, []byte("x"), 0o600); err == nil {
		t.Fatal("a loop of links was written")
	}
	if fi, err := os.Lstat(loop); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the loop was replaced: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(d, ".*tmp-*")); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}
