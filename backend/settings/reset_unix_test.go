//go:build unix

package settings

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Reset moves whatever is at the settings path aside without opening it
// (a named pipe is not waited on), a symbolic link as the link (its target
// untouched), a second reset in the same second to a name of its own; the
// defaults apply after it.
func TestResetMovesTheFileAside(t *testing.T) {
	now := time.Date(2026, 12, 5, 10, 16, 54, 0, time.UTC)
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	f := NewFile(p, testCatalog())
	if aside, err := f.Reset(now); err != nil || aside != "" {
		t.Fatalf("reset without a file: %q %v", aside, err)
	}
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	aside, err := f.Reset(now)
	if fi, serr := os.Lstat(aside); err != nil || aside != p+".20261205-101654.bak" || serr != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("reset of a named pipe: %q %v %v", aside, err, serr)
	}
	target := filepath.Join(t.TempDir(), "dotfiles.json")
	if err := os.WriteFile(target, []byte(`{"runner": `), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
	aside, err = f.Reset(now)
	if link, lerr := os.Readlink(aside); err != nil || aside != p+".20261205-101654-2.bak" || lerr != nil || link != target {
		t.Fatalf("reset of a link: %q %v %q %v", aside, err, link, lerr)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != `{"runner": ` {
		t.Fatalf("the link's target changed: %q %v", b, err)
	}
	if s, err := f.Load(); err != nil || s.Runner.Concurrency != DefaultConcurrency {
		t.Fatalf("after reset: %v %+v", err, s.Runner)
	}
}
