package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/wake"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "boof.db")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func userVersion(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestOpenMigratesFromEmptyAndReopens(t *testing.T) {
	s, path := openTemp(t)
	var mode string
	if err := s.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v", mode, err)
	}
	var fk int
	if err := s.db.QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Fatalf("foreign_keys = %d, %v", fk, err)
	}
	created, err := s.CreateTask(context.Background(), task.NewTask{Prompt: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if v := userVersion(t, path); v != LatestSchema() || v == 0 {
		t.Fatalf("user_version = %d, want %d", v, LatestSchema())
	}
	s2, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s2.Close()
	got, err := s2.GetTask(context.Background(), created.ID)
	if err != nil || got.Prompt != "hello" || got.Status != task.StatusPending {
		t.Fatalf("after reopen: %+v, %v", got, err)
	}
}

func TestOpenRefusesNonSQLiteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "boof.db")
	content := []byte("these are my notes, not a database\n")
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path, Options{})
	if !errors.Is(err, ErrNotDatabase) {
		t.Fatalf("want ErrNotDatabase, got %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(content) {
		t.Fatal("the file was changed")
	}
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a -wal file was created")
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	s, path := openTemp(t)
	if _, err := s.db.Exec(fmt.Sprintf("PRAGMA user_version = %d", LatestSchema()+5)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Open(context.Background(), path, Options{})
	var tooNew *SchemaTooNewError
	if !errors.As(err, &tooNew) || tooNew.Version != LatestSchema()+5 {
		t.Fatalf("want SchemaTooNewError, got %v", err)
	}
	if v := userVersion(t, path); v != LatestSchema()+5 {
		t.Fatalf("version changed to %d", v)
	}
}

func TestListOrderAndFilter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "boof.db")
	s, err := Open(context.Background(), path, Options{Now: func() time.Time { now = now.Add(time.Second); return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	a, _ := s.CreateTask(ctx, task.NewTask{Prompt: "alpha 100%"})
	b, _ := s.CreateTask(ctx, task.NewTask{Prompt: "beta", Draft: true})
	c, _ := s.CreateTask(ctx, task.NewTask{Prompt: "gamma", Title: "Third"})
	all, err := s.ListTasks(ctx, Filter{})
	if err != nil || len(all) != 3 || all[0].ID != c.ID || all[2].ID != a.ID {
		t.Fatalf("list = %v, %v", all, err)
	}
	drafts, _ := s.ListTasks(ctx, Filter{Statuses: []task.Status{task.StatusDraft}})
	if len(drafts) != 1 || drafts[0].ID != b.ID {
		t.Fatalf("drafts = %v", drafts)
	}
	pct, _ := s.ListTasks(ctx, Filter{Search: "100%"})
	if len(pct) != 1 || pct[0].ID != a.ID {
		t.Fatalf("search = %v", pct)
	}
	none, _ := s.ListTasks(ctx, Filter{Search: "_"})
	if len(none) != 0 {
		t.Fatalf("'_' must match literally, got %v", none)
	}
	if _, err := s.GetTask(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("want ErrNotFound, got %v", err)
	}
}

func TestCreateRejectsBadInputAndStoresNothing(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if _, err := s.CreateTask(ctx, task.NewTask{Prompt: "  "}); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("want ErrInvalid, got %v", err)
	}
	if all, _ := s.ListTasks(ctx, Filter{}); len(all) != 0 {
		t.Fatalf("stored %d tasks", len(all))
	}
}

func TestWatchSeesOtherConnections(t *testing.T) {
	s, path := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changed := make(chan struct{}, 10)
	watched := make(chan error, 1)
	go func() { watched <- s.Watch(ctx, 20*time.Millisecond, nil, func() { changed <- struct{}{} }) }()
	other, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	// Write until the watcher sees it: under load its goroutine may take its
	// baseline after the first write, which it then rightly does not report.
	deadline := time.After(10 * time.Second)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for seen := false; !seen; {
		if _, err := other.CreateTask(ctx, task.NewTask{Prompt: "from elsewhere"}); err != nil {
			t.Fatal(err)
		}
		select {
		case <-changed:
			seen = true
		case err := <-watched:
			t.Fatalf("watch ended early: %v", err)
		case <-deadline:
			t.Fatal("no change seen")
		case <-tick.C:
		}
	}
	// Watch returns once ctx ends, and the store then closes.
	cancel()
	if err := <-watched; err != nil {
		t.Fatalf("watch returned %v after its context ended", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// With an hour-long poll, a wake-up makes Watch look at once: another
// connection's commit is reported after the wake fires, and not before.
func TestWatchLooksWhenWoken(t *testing.T) {
	s, path := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var sig wake.Signal
	taken := make(chan struct{}, 100)
	next := func() <-chan struct{} { taken <- struct{}{}; return sig.Next() }
	changed := make(chan struct{}, 10)
	watched := make(chan error, 1)
	go func() { watched <- s.Watch(ctx, time.Hour, next, func() { changed <- struct{}{} }) }()
	<-taken // the baseline is read and Watch waits
	other, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.CreateTask(ctx, task.NewTask{Prompt: "from elsewhere"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
		t.Fatal("a change was reported without a wake-up or a poll")
	case <-time.After(100 * time.Millisecond):
	}
	sig.Fire()
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("the wake-up did not make Watch look")
	}
	cancel()
	if err := <-watched; err != nil {
		t.Fatalf("watch returned %v", err)
	}
}

// TestConcurrentWritersTwoProcesses runs this test binary twice as writer
// processes against one database; every insert must succeed.
func TestConcurrentWritersTwoProcesses(t *testing.T) {
	if path := os.Getenv("BOOF_STORE_WRITER_DB"); path != "" {
		writerProcess(t, path)
		return
	}
	path := filepath.Join(t.TempDir(), "boof.db")
	const perProc = 100
	var wg sync.WaitGroup
	errs := make([]error, 2)
	outs := make([][]byte, 2)
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentWritersTwoProcesses$", "-test.count=1")
			cmd.Env = append(os.Environ(), "BOOF_STORE_WRITER_DB="+path, "BOOF_STORE_WRITER_N="+strconv.Itoa(perProc))
			outs[i], errs[i] = cmd.CombinedOutput()
		}(i)
	}
	wg.Wait()
	for i := range errs {
		if errs[i] != nil {
			t.Fatalf("writer %d: %v\n%s", i, errs[i], outs[i])
		}
	}
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	all, err := s.ListTasks(context.Background(), Filter{Limit: 1000})
	if err != nil || len(all) != 2*perProc {
		t.Fatalf("got %d tasks, want %d (%v)", len(all), 2*perProc, err)
	}
}

func writerProcess(t *testing.T, path string) {
	n, _ := strconv.Atoi(os.Getenv("BOOF_STORE_WRITER_N"))
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < n; i++ {
		if _, err := s.CreateTask(context.Background(), task.NewTask{Prompt: fmt.Sprintf("task %d from pid %d", i, os.Getpid())}); err != nil {
			t.Fatalf("insert %d: %v", i, err)
		}
	}
}
