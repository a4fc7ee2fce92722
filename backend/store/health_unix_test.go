//go:build unix

package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestOpenRefusesANamedPipeWithoutBlocking(t *testing.T) {
	path := filepath.Join(t.TempDir(), "boof.db")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Open(context.Background(), path, Options{})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotDatabase) || !strings.Contains(err.Error(), "named pipe") {
			t.Fatalf("want ErrNotDatabase naming a named pipe, got %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Open blocked on a named pipe")
	}
}
