//go:build unix

package settings

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLoadRefusesWhatIsNotAFile: a named pipe, a device (a symlink to
// /dev/zero, which would never end), a folder and a file over the cap are
// each reported as a malformed file naming what it is, without blocking or
// reading it into memory; Set refuses them too and writes nothing (the
// file over the cap as too large to write).
func TestLoadRefusesWhatIsNotAFile(t *testing.T) {
	cases := map[string]struct {
		make func(path string) error
		want string
	}{
		"named pipe": {func(p string) error { return syscall.Mkfifo(p, 0o600) }, "is a named pipe, not a file"},
		"device":     {func(p string) error { return os.Symlink("/dev/zero", p) }, "is a device, not a file"},
		"folder":     {func(p string) error { return os.Mkdir(p, 0o700) }, "is a folder, not a file"},
		"too large": {func(p string) error {
			return os.WriteFile(p, []byte(`{"ui":{"notifications":true}, "pad":"`+strings.Repeat("x", MaxFileSize)+`"}`), 0o600)
		}, "is larger than 1024 KiB"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "settings.json")
			if err := c.make(p); err != nil {
				t.Fatal(err)
			}
			f := NewFile(p, testCatalog())
			err := loadWithin(t, f)
			var me *MalformedError
			if !errors.As(err, &me) || me.Problem != c.want || me.Path != p {
				t.Fatalf("got %v, want a malformed file that %s", err, c.want)
			}
			// A change reads a file over the cap (so its long values can be
			// unset) but refuses to write one.
			var tl *TooLargeError
			if _, err := f.Set("review.gate", "false"); !errors.As(err, &me) && !(name == "too large" && errors.As(err, &tl)) {
				t.Fatalf("set: got %v", err)
			}
			if _, err := f.Get(""); !errors.As(err, &me) {
				t.Fatalf("get: got %v", err)
			}
		})
	}
}

// TestSaveRefusesToReplaceAPipe: saving from the UI replaces a malformed
// file, but never a named pipe with a file.
func TestSaveRefusesToReplaceAPipe(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.json")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	f := NewFile(p, testCatalog())
	var me *MalformedError
	if err := f.Save(Defaults(testCatalog())); !errors.As(err, &me) {
		t.Fatalf("save over a pipe: %v", err)
	}
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v %v", fi.Mode(), err)
	}
}
