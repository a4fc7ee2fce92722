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
func TestWriteThroughLinksKeepsTheLink(t *testing.T) {
	d := t.TempDir()
	real := filepath.Join(d, "dotfiles", "settings.json")
	os.Mkdir(filepath.Dir(real), 0o700)
	os.WriteFile(real, []byte("old"), 0o600)
	link, chain := filepath.Join(d, "settings.json"), filepath.Join(d, "chain.json")
	os.Symlink("dotfiles/settings.json", link)
	os.Symlink("settings.json", chain)
	if err := WriteFileThroughLinks(chain, []byte("new"), 0o600); err != nil {
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
	if err := WriteFileThroughLinks(dangling, []byte("made"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(d, "dotfiles", "later.json")); string(b) != "made" {
		t.Fatalf("the dangling link's target holds %q", b)
	}
	loop := filepath.Join(d, "loop")
	os.Symlink("loop", loop)
	if err := WriteFileThroughLinks(loop, []byte("x"), 0o600); err == nil {
		t.Fatal("a loop of links was written")
	}
	if fi, err := os.Lstat(loop); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the loop was replaced: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(d, ".*tmp-*")); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// A file the program keeps for itself is replaced, never written through:
// a link planted where it lives (by an agent in its home, say) leads the
// write nowhere, and the link's target is untouched.
func TestWriteFileReplacesALink(t *testing.T) {
	d := t.TempDir()
	outside := filepath.Join(d, "outside")
	if err := os.WriteFile(outside, []byte("the user's"), 0o600); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(d, "state.json")
	if err := os.Symlink(outside, kept); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(kept, []byte("ours"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "the user's" {
		t.Fatalf("the write went through the link: the target holds %q", b)
	}
	if fi, err := os.Lstat(kept); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the link was not replaced by the file: %v %v", fi, err)
	}
}
