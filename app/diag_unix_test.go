//go:build unix

package app

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestDiagStartProbesWritesTheSnapshotOnSIGUSR2(t *testing.T) {
	em := &answeringEmitter{text: "Review\nAccept…"}
	d := NewDiagService(slog.New(slog.DiscardHandler), em, context.Background)
	em.d = d
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	StartScreenProbes(ctx, d, dir)
	if err := syscall.Kill(os.Getpid(), syscall.SIGUSR2); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, SnapshotFile)
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if err == nil {
			if got := string(b); got != "seq 1\nReview\nAccept…\n" {
				t.Fatalf("snapshot file %q", got)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no snapshot file after SIGUSR2")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
