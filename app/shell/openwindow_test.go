package shell

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/backend/store"
)

// TestOpenForWindow: the app opened beside the toolkit's start is the
// same app Open gives (its store answers, Close ends it), WebKit's
// environment is set first, and a data root that cannot be opened is the
// same error and no app.
func TestOpenForWindow(t *testing.T) {
	data := newDataRoot(t)
	t.Setenv("WEBKIT_DISABLE_DMABUF_RENDERER", "x") // restored after the test
	os.Unsetenv("WEBKIT_DISABLE_DMABUF_RENDERER")
	a, err := OpenForWindow(context.Background(), Options{DataDir: data, Exe: os.Args[0]})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := os.LookupEnv("WEBKIT_DISABLE_DMABUF_RENDERER"); !ok || v != "1" {
		t.Errorf("WEBKIT_DISABLE_DMABUF_RENDERER after OpenForWindow: %q %v", v, ok)
	}
	if _, err := a.store.ListTasks(context.Background(), store.Filter{}); err != nil {
		t.Errorf("the store of the opened app: %v", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, want := Open(context.Background(), Options{DataDir: file})
	a, err = OpenForWindow(context.Background(), Options{DataDir: file})
	if err == nil || a != nil || want == nil || err.Error() != want.Error() {
		t.Fatalf("OpenForWindow on a file: app %v, err %v; Open said %v", a, err, want)
	}
}
