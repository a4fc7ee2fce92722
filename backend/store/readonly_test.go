package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

// TestOpenReadOnly: a read-only open reads what is there and writes
// nothing; it sends a missing or older database to Open.
func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "db")
	if _, err := OpenReadOnly(ctx, path, Options{}); !errors.Is(err, ErrNeedsWrite) {
		t.Fatalf("missing database: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("a read-only open created the database: %v", err)
	}
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tk := mustCreate(t, s, task.NewTask{Prompt: "read me"})
	s.Close()
	ro, err := OpenReadOnly(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ro.GetTask(ctx, tk.ID); err != nil || got.Prompt != "read me" {
		t.Fatalf("read: %+v %v", got, err)
	}
	if _, err := ro.CreateTask(ctx, task.NewTask{Prompt: "no"}); err == nil {
		t.Fatal("a write through a read-only store")
	}
	ro.Close()
	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`PRAGMA user_version = 3`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := OpenReadOnly(ctx, path, Options{}); !errors.Is(err, ErrNeedsWrite) {
		t.Fatalf("older schema: %v", err)
	}
}
