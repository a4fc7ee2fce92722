package dataroot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) Getenv { return func(k string) string { return m[k] } }

func TestResolve(t *testing.T) {
	// Absolute paths of this OS (/x on Linux, C:\x on Windows): Resolve
	// makes its result absolute the host's way.
	abs := func(parts ...string) string { return filepath.Join(append([]string{testRoot()}, parts...)...) }
	cases := []struct {
		name, flag, goos, want string
		env                    map[string]string
	}{
		{"flag wins", abs("x", "flag"), "linux", abs("x", "flag"), map[string]string{EnvVar: abs("x", "env"), "HOME": abs("h")}},
		{"env var", "", "linux", abs("x", "env"), map[string]string{EnvVar: abs("x", "env"), "HOME": abs("h")}},
		{"xdg", "", "linux", abs("xdg", "boof-runner"), map[string]string{"XDG_DATA_HOME": abs("xdg"), "HOME": abs("h")}},
		{"relative xdg ignored", "", "linux", abs("h", ".local", "share", "boof-runner"), map[string]string{"XDG_DATA_HOME": "rel", "HOME": abs("h")}},
		{"linux home", "", "linux", abs("h", ".local", "share", "boof-runner"), map[string]string{"HOME": abs("h")}},
		{"macos", "", "darwin", abs("h", "Library", "Application Support", "Boof Runner"), map[string]string{"HOME": abs("h")}},
		{"windows", "", "windows", abs("appdata", "Boof Runner"), map[string]string{"AppData": abs("appdata")}},
		{"windows profile", "", "windows", abs("u", "AppData", "Roaming", "Boof Runner"), map[string]string{"USERPROFILE": abs("u")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Resolve(c.flag, env(c.env), c.goos)
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
	if _, err := Resolve("", env(nil), "linux"); err == nil {
		t.Fatal("want an error with no HOME")
	}
	if _, err := Resolve("", env(nil), "windows"); err == nil {
		t.Fatal("want an error with no AppData")
	}
}

// testRoot is the root folder of the temporary directory's volume: / on
// Linux and macOS, C:\ (the drive) on Windows.
func testRoot() string {
	return filepath.VolumeName(os.TempDir()) + string(filepath.Separator)
}

// TestEnsureCreates: the data root and its parents are made, and the
// write probe is not left behind. (Its mode: dataroot_unix_test.go.)
func TestEnsureCreates(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "root")
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("not a folder: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("probe left behind: %v", entries)
	}
}

// TestEnsureUnderAFile: a data root that cannot be made (its parent is a
// file) gets a clear error naming the path.
func TestEnsureUnderAFile(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(parent, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := Ensure(filepath.Join(parent, "root"))
	if err == nil || !strings.Contains(err.Error(), parent) {
		t.Fatalf("want a clear error naming the path, got %v", err)
	}
}
