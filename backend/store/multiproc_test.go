package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

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
	// The workers are started one after another (they still run at the same
	// time: each does 40 rounds), never by concurrent CreateProcess calls,
	// which Wine sometimes refuses with "Internal error".
	var wg sync.WaitGroup
	outs := make([]bytes.Buffer, 3)
	errs := make([]error, 3)
	for i := range 3 {
		cmd, err := startWorker(t, path, &outs[i])
		if err != nil {
			t.Fatalf("worker %d: %v", i, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = cmd.Wait()
		}()
	}
	wg.Wait()
	for i := range errs {
		if errs[i] != nil {
			t.Fatalf("worker %d: %v\n%s", i, errs[i], outs[i].String())
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

// startWorker starts one worker process writing into out. Under Wine
// (BOOF_UNDER_WINE, set by scripts/wine/test.sh) a refused start is tried
// twice more, logged: Wine's CreateProcess fails now and then with
// "Internal error" while a real Windows does not; anywhere else the first
// error is the answer.
func startWorker(t *testing.T, path string, out *bytes.Buffer) (*exec.Cmd, error) {
	tries := 1
	if os.Getenv("BOOF_UNDER_WINE") != "" {
		tries = 3
	}
	var err error
	for try := 1; try <= tries; try++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMixedUseAcrossProcesses$", "-test.count=1")
		cmd.Env = append(os.Environ(), "BOOF_STORE_MIXED_DB="+path)
		cmd.Stdout, cmd.Stderr = out, out
		if err = cmd.Start(); err == nil {
			return cmd, nil
		}
		t.Logf("start %d of %d: %v", try, tries, err)
		time.Sleep(200 * time.Millisecond)
	}
	return nil, err
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
