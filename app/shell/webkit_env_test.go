package shell

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestSetWebKitEnvSetsWhatTheUserLeftUnset(t *testing.T) {
	env := map[string]string{}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	set := func(k, v string) error { env[k] = v; return nil }
	if err := setWebKitEnv(lookup, set); err != nil {
		t.Fatal(err)
	}
	if got := env["WEBKIT_DISABLE_DMABUF_RENDERER"]; got != "1" {
		t.Fatalf("WEBKIT_DISABLE_DMABUF_RENDERER = %q, want 1 (env %v)", got, env)
	}
}

func TestSetWebKitEnvKeepsTheUsersValues(t *testing.T) {
	env := map[string]string{"WEBKIT_DISABLE_DMABUF_RENDERER": "0"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	set := func(k, v string) error { t.Errorf("set %s=%s over the user's value", k, v); return nil }
	if err := setWebKitEnv(lookup, set); err != nil {
		t.Fatal(err)
	}
	if env["WEBKIT_DISABLE_DMABUF_RENDERER"] != "0" {
		t.Fatalf("the user's value changed: %v", env)
	}
}

func TestSetWebKitEnvReportsAFailedSet(t *testing.T) {
	boom := errors.New("boom")
	err := setWebKitEnv(func(string) (string, bool) { return "", false }, func(string, string) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want %v", err, boom)
	}
}

func TestWindowIconPrefersTheSmallIcon(t *testing.T) {
	big, small := []byte("app icon"), []byte("window icon")
	a := &App{opts: Options{AppIcon: big, WindowIcon: small}}
	if got := a.windowIcon(); !bytes.Equal(got, small) {
		t.Fatalf("window icon = %q, want the WindowIcon", got)
	}
	a = &App{opts: Options{AppIcon: big}}
	if got := a.windowIcon(); !bytes.Equal(got, big) {
		t.Fatalf("without a WindowIcon the window shows %q, want the AppIcon", got)
	}
}

// WebKit's storage folders are made inside the data root, 0700, and one
// left 0755 (by an older version or by hand) is closed again.
func TestWebKitStorageFolders(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "webkit", "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, cache, err := webkitStorage(root)
	if err != nil || data != filepath.Join(root, "webkit", "data") || cache != filepath.Join(root, "webkit", "cache") {
		t.Fatalf("%q %q %v", data, cache, err)
	}
	for _, d := range []string{filepath.Join(root, "webkit"), data, cache} {
		fi, err := os.Stat(d)
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			t.Fatalf("%s: %v %v", d, fi.Mode(), err)
		}
	}
}
