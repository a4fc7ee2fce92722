package host_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// seen is what OnRunningChanged found when it was called: what runs and
// each task's status in the store.
type seen struct {
	running []string
	status  map[string]task.Status
}

// The host tells OnRunningChanged when a task starts and after it ended,
// with the ended task already out of Running and its outcome in the store:
// the window's runner badge, which recomputes the status on that call,
// then shows the queue idle instead of keeping a task that failed before
// its first step (no working directory) or one that finished.
func TestOnRunningChangedAfterEachTaskEnds(t *testing.T) {
	paths := newPaths(t)
	repo := newRepo(t)
	// No workingDirectory: a task without its own repo fails at once.
	writeMockSettings(t, paths, map[string]any{"runner": map[string]any{"concurrency": 1}})
	ctx := context.Background()
	st, err := store.Open(ctx, paths.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	bad, err := st.CreateTask(ctx, task.NewTask{Prompt: "No repo anywhere.", Priority: 1})
	if err != nil {
		t.Fatal(err)
	}
	good, err := st.CreateTask(ctx, task.NewTask{Prompt: "Its own repo.", Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		calls []seen
		h     *host.Host
	)
	changed := func() {
		s := seen{running: h.Runner.Running(), status: map[string]task.Status{}}
		for _, id := range []string{bad.ID, good.ID} {
			tk, err := st.GetTask(ctx, id)
			if err != nil {
				t.Errorf("get %s: %v", id, err)
			}
			s.status[id] = tk.Status
		}
		mu.Lock()
		calls = append(calls, s)
		mu.Unlock()
	}
	h, err = host.Open(context.Background(), host.Options{Paths: paths, Store: st, Exe: os.Args[0], OnRunningChanged: changed})
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := h.Run(rctx, runner.UntilIdle); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.GetTask(ctx, bad.ID); got.Status != task.StatusFailed || !strings.Contains(got.Error, "no working directory") {
		t.Fatalf("the task without a repo: %s %q", got.Status, got.Error)
	}
	if got, _ := st.GetTask(ctx, good.ID); got.Status != task.StatusDone {
		t.Fatalf("the task with its repo: %s %q", got.Status, got.Error)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 4 {
		t.Fatalf("OnRunningChanged called %d times, want 4 (start and end of each task): %+v", len(calls), calls)
	}
	// One task at a time, the higher priority first.
	for i, want := range []struct {
		id      string
		running bool
		status  task.Status
	}{
		{bad.ID, true, task.StatusOngoing},
		{bad.ID, false, task.StatusFailed},
		{good.ID, true, task.StatusOngoing},
		{good.ID, false, task.StatusDone},
	} {
		c := calls[i]
		if slices.Contains(c.running, want.id) != want.running || c.status[want.id] != want.status {
			t.Errorf("call %d: running %v, statuses %v; want %s running=%v %s", i, c.running, c.status, want.id, want.running, want.status)
		}
		if !want.running && len(c.running) != 0 {
			t.Errorf("call %d: still running %v after the task ended", i, c.running)
		}
	}
}
