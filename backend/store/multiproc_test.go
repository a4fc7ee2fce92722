package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/boof-runner/boof-runner/backend/task"
)

// TestMixedUseAcrossProcesses runs three processes that add tasks, claim
// them, log, finish executions and list at the same time on one database.
// Only claim conflicts are expected; "database is locked" or any other error
// fails the test.
func TestMixedUseAcrossProcesses(t *testing.T) {
	if path := os.Getenv("BOOF_STORE_MIXED_DB"); path != "" {
		mixedWorker(t, path)
		return
	}
	path := filepath.Join(t.TempDir(), "boof.db")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var wg sync.WaitGroup
	outs := make([][]byte, 3)
	errs := make([]error, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestMixedUseAcrossProcesses$", "-test.count=1")
			cmd.Env = append(os.Environ(), "BOOF_STORE_MIXED_DB="+path)
			outs[i], errs[i] = cmd.CombinedOutput()
		}()
	}
	wg.Wait()
	for i := range errs {
		if errs[i] != nil {
			t.Fatalf("worker %d: %v\n%s", i, errs[i], outs[i])
		}
	}
	all, err := s.ListTasks(context.Background(), Filter{Limit: 1000})
	if err != nil || len(all) != 3*40 {
		t.Fatalf("%d tasks (%v), want 120", len(all), err)
	}
	ongoing := 0
	for _, tk := range all {
		ex, _ := s.Executions(context.Background(), tk.ID)
		if tk.Status == task.StatusDone {
			if len(ex) != 1 || ex[0].EndedAt == nil {
				t.Fatalf("done task %s has executions %+v", tk.ID, ex)
			}
		}
		if tk.Status == task.StatusOngoing {
			ongoing++
		}
	}
	if ongoing != 0 {
		t.Fatalf("%d tasks left ongoing", ongoing)
	}
}

func mixedWorker(t *testing.T, path string) {
	ctx := context.Background()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 40 {
		if _, err := s.CreateTask(ctx, task.NewTask{Prompt: fmt.Sprintf("task %d of %d", i, os.Getpid())}); err != nil {
			t.Fatalf("create: %v", err)
		}
		next, err := s.NextPending(ctx)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			t.Fatalf("next: %v", err)
		}
		ex, err := s.Claim(ctx, next.ID, ClaimInfo{Role: task.RoleDeveloper, Model: "mock"})
		if errors.Is(err, ErrClaimConflict) {
			continue
		}
		if err != nil {
			t.Fatalf("claim: %v", err)
		}
		if err := s.AppendLog(ctx, next.ID, ex.ID, task.LevelInfo, "working"); err != nil {
			t.Fatalf("log: %v", err)
		}
		if _, err := s.ListTasks(ctx, Filter{Limit: 100}); err != nil {
			t.Fatalf("list: %v", err)
		}
		if err := s.FinishExecution(ctx, ex.ID, task.OutcomeSucceeded, 0, task.Usage{TokensIn: 1}, false); err != nil {
			t.Fatalf("finish: %v", err)
		}
		if _, err := s.Transition(ctx, next.ID, task.StatusDone, TransitionNote{}); err != nil {
			t.Fatalf("done: %v", err)
		}
	}
	// Drain what is left so no task stays pending forever in the check above.
	for {
		next, err := s.NextPending(ctx)
		if errors.Is(err, ErrNotFound) {
			return
		}
		if err != nil {
			t.Fatalf("next: %v", err)
		}
		ex, err := s.Claim(ctx, next.ID, ClaimInfo{Role: task.RoleDeveloper})
		if errors.Is(err, ErrClaimConflict) {
			continue
		}
		if err != nil {
			t.Fatalf("claim: %v", err)
		}
		if err := s.FinishExecution(ctx, ex.ID, task.OutcomeSucceeded, 0, task.Usage{}, false); err != nil {
			t.Fatalf("finish: %v", err)
		}
		if _, err := s.Transition(ctx, next.ID, task.StatusDone, TransitionNote{}); err != nil {
			t.Fatalf("done: %v", err)
		}
	}
}
