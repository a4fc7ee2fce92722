package dataroot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func env(m map[string]string) Getenv { return func(k string) string { return m[k] } }

func TestResolve(t *testing.T) {
	cases := []struct {
		name, flag, goos, want string
		env                    map[string]string
	}{
		{"flag wins", "/x/flag", "linux", "/x/flag", map[string]string{EnvVar: "/x/env", "HOME": "/h"}},
		{"env var", "", "linux", "/x/env", map[string]string{EnvVar: "/x/env", "HOME": "/h"}},
		{"xdg", "", "linux", "/xdg/boof-runner", map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/h"}},
		{"relative xdg ignored", "", "linux", "/h/.local/share/boof-runner", map[string]string{"XDG_DATA_HOME": "rel", "HOME": "/h"}},
		{"linux home", "", "linux", "/h/.local/share/boof-runner", map[string]string{"HOME": "/h"}},
		{"macos", "", "darwin", "/h/Library/Application Support/Boof Runner", map[string]string{"HOME": "/h"}},
		{"windows", "", "windows", filepath.Join("/appdata", "Boof Runner"), map[string]string{"AppData": "/appdata"}},
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
}

func TestEnsureCreates0700(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "root")
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode = %v, %v", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("probe left behind: %v", entries)
	}
}

func TestEnsureReadOnlyParent(t *testing.T) {
	if os.Geteuid() == 0 {
		// root ignores directory permissions; use a path under a file instead.
		parent := filepath.Join(t.TempDir(), "file")
		os.WriteFile(parent, []byte("x"), 0o600)
		err := Ensure(filepath.Join(parent, "root"))
		if err == nil || !strings.Contains(err.Error(), parent) {
			t.Fatalf("want a clear error naming the path, got %v", err)
		}
		return
	}
	parent := t.TempDir()
	os.Chmod(parent, 0o500)
	defer os.Chmod(parent, 0o700)
	err := Ensure(filepath.Join(parent, "root"))
	if err == nil || !strings.Contains(err.Error(), "cannot create data dir") {
		t.Fatalf("got %v", err)
	}
}
