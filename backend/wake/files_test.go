package wake_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/wake"
)

// TestWatchFilesRingsForItsFilesOnly: a write to a watched file rings,
// one to another file of the directory does not, and after Close nothing
// rings.
func TestWatchFilesRingsForItsFilesOnly(t *testing.T) {
	dir := t.TempDir()
	rings := make(chan string, 64)
	w, err := wake.WatchFiles(dir, []string{"db", "db-wal"}, 0, func() { rings <- "ring" })
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "other.log"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "db-wal"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case <-rings:
	case <-time.After(10 * time.Second): // a deadline for a hang, not a speed threshold
		t.Fatal("a write to db-wal never rang")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for len(rings) > 0 { // the write's other events (close-write) may have rung too
		<-rings
	}
	if err := os.WriteFile(filepath.Join(dir, "db"), []byte("y"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "other.log"), []byte("z"), 0o600); err != nil {
		t.Fatal(err)
	}
	if len(rings) != 0 {
		t.Fatal("the watch rang after Close")
	}
}

// TestWatchSeesAnotherConnectionsCommitAtOnce: a store watch whose poll
// is an hour apart, woken by the file watch of the database, sees a task
// another connection (as another process would) adds; without the file
// watch only the poll would.
func TestWatchSeesAnotherConnectionsCommitAtOnce(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "boof-runner.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	watcher, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	var sig wake.Signal
	fw, err := wake.WatchFiles(dir, []string{"boof-runner.db", "boof-runner.db-wal"}, 20*time.Millisecond, sig.Fire)
	if err != nil {
		t.Fatal(err)
	}
	defer fw.Close()
	changed := make(chan struct{}, 16)
	watching := make(chan error, 1)
	go func() { watching <- watcher.Watch(ctx, time.Hour, sig.Next, func() { changed <- struct{}{} }) }()

	other, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	// The watch reads its first data_version after it starts: a commit
	// made before that is not a change to it, so commit until one is seen
	// (each try waits long; the poll is an hour away either way).
	seen := false
	for try := 0; try < 20 && !seen; try++ {
		if _, err := other.CreateTask(ctx, task.NewTask{Title: "from elsewhere", Prompt: "p", Repo: dir}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-changed:
			seen = true
		case err := <-watching:
			t.Fatalf("the watch ended: %v", err)
		case <-time.After(500 * time.Millisecond):
		}
	}
	if !seen {
		t.Fatal("the other connection's commits were never seen")
	}
	cancel()
	if err := <-watching; err != nil {
		t.Fatal(err)
	}
}
