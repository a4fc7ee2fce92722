package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range des {
		out = append(out, d.Name())
	}
	return out
}

func TestWriteFileReplacesAndLeavesNothingElse(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new"), 0o640); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "new" {
		t.Fatalf("content %q, %v; want new", b, err)
	}
	checkMode(t, path, 0o640)
	if got := entries(t, dir); len(got) != 1 {
		t.Fatalf("folder holds %v, want settings.json only", got)
	}
}

func TestWriteFileToAMissingFolderNamesTheTarget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gone", "out.md")
	err := WriteFile(path, []byte("x"), 0o644)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != path || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want a *fs.PathError naming %s that is fs.ErrNotExist", err, path)
	}
}

func TestAbortLeavesTheTargetAsItWas(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "meta.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	tmp, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tmp.Write([]byte("half")); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(tmp.Name()), ".meta.json.tmp-") || filepath.Dir(tmp.Name()) != dir {
		t.Fatalf("temporary file %s, want .meta.json.tmp-* in %s", tmp.Name(), dir)
	}
	tmp.Abort()
	tmp.Abort()
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("target holds %q after Abort, want old", b)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Fatalf("folder holds %v after Abort, want meta.json only", got)
	}
}

// TestCloseThenCommit: files written first and renamed later (the store's
// attachments, staged before the transaction that records them).
func TestCloseThenCommit(t *testing.T) {
	dir := t.TempDir()
	var temps []*Temp
	for _, name := range []string{"a.txt", strings.Repeat("n", 63) + strings.Repeat("é", 90)} { // a name near the limit still gets a temporary one, cut between characters
		tmp, err := Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.ValidString(tmp.Name()) {
			t.Errorf("temporary name %q cuts a character", tmp.Name())
		}
		if _, err := tmp.Write([]byte(name[:1])); err != nil {
			t.Fatal(err)
		}
		if err := tmp.Close(); err != nil {
			t.Fatal(err)
		}
		temps = append(temps, tmp)
	}
	if err := temps[1].Chmod(0o644); err != nil {
		t.Fatal(err)
	}
	for _, tmp := range temps {
		if err := tmp.Commit(); err != nil {
			t.Fatal(err)
		}
		tmp.Abort() // a no-op once committed
	}
	got := entries(t, dir)
	if len(got) != 2 {
		t.Fatalf("folder holds %v, want the two files only", got)
	}
	for _, name := range got {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != name[:1] {
			t.Errorf("%s holds %q", name, b)
		}
	}
}

// TestCommitOverAFolderFailsAndCleansUp: a rename that fails leaves the
// target as it was and no temporary file.
func TestCommitOverAFolderFailsAndCleansUp(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(target, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(target, []byte("x"), 0o600); err == nil {
		t.Fatal("a write over a non-empty folder succeeded")
	}
	if fi, err := os.Stat(target); err != nil || !fi.IsDir() {
		t.Fatalf("target changed: %v %v", fi, err)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Fatalf("folder holds %v, want the target only", got)
	}
}
