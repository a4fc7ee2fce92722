package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// benchFixture fills a database with 100k tasks (10% pending, spread over
// priorities) and 1M log lines over 1,000 tasks, using plain SQL in one
// transaction.
func benchFixture(b testing.TB, path string) (*Store, string) {
	b.Helper()
	ctx := context.Background()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	statuses := []task.Status{task.StatusDone, task.StatusFailed, task.StatusArchived, task.StatusDraft, task.StatusStopped,
		task.StatusDone, task.StatusDone, task.StatusAccepted, task.StatusRejected, task.StatusPending}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ids := make([]string, 100_000)
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		ins, err := tx.PrepareContext(ctx, `INSERT INTO tasks (id, title, prompt, status, priority, skip, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for i := range ids {
			at := base.Add(time.Duration(i) * time.Second)
			ids[i] = fmt.Sprintf("%010d%06d", i, i)[:16]
			if _, err := ins.ExecContext(ctx, ids[i], fmt.Sprintf("task %d", i), fmt.Sprintf("prompt of task %d, some words", i),
				string(statuses[i%len(statuses)]), i%7, i%13 == 0, at.UnixMilli(), at.UnixMilli()); err != nil {
				return err
			}
		}
		logIns, err := tx.PrepareContext(ctx, `INSERT INTO log_lines (task_id, at, level, text) VALUES (?, ?, 'info', ?)`)
		if err != nil {
			return err
		}
		defer logIns.Close()
		// Tasks 0-499 get their lines interleaved (the worst case: five
		// hundred tasks logging at once); tasks 500-999 get theirs in one run
		// each, as a task running alone does.
		for i := range 1_000_000 {
			owner := ids[i%500]
			if i >= 500_000 {
				owner = ids[500+(i-500_000)/1000]
			}
			if _, err := logIns.ExecContext(ctx, owner, base.UnixMilli()+int64(i), "step output line with a little text"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		b.Fatal(err)
	}
	return s, path
}

// BenchmarkStore100k measures the figures on 100k tasks and 1M log
// lines: pick-next, one list page of 100, a log page, and open + migrate check.
func BenchmarkStore100k(b *testing.B) {
	s, path := benchFixture(b, filepath.Join(b.TempDir(), "bench.db"))
	defer s.Close()
	ctx := context.Background()
	b.Run("pick-next", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.NextPending(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("list-page-100", func(b *testing.B) {
		for b.Loop() {
			if got, err := s.ListTasks(ctx, Filter{Limit: 100}); err != nil || len(got) != 100 {
				b.Fatal(len(got), err)
			}
		}
	})
	b.Run("list-page-100-pending", func(b *testing.B) {
		for b.Loop() {
			if got, err := s.ListTasks(ctx, Filter{Limit: 100, Offset: 100, Statuses: []task.Status{task.StatusPending}}); err != nil || len(got) != 100 {
				b.Fatal(len(got), err)
			}
		}
	})
	for name, id := range map[string]string{"interleaved": "0000000007000007", "contiguous": "0000000700000700"} {
		b.Run("log-page-1000-"+name, func(b *testing.B) {
			for b.Loop() {
				if got, err := s.Log(ctx, id, 0, 1000); err != nil || len(got) != 1000 {
					b.Fatal(len(got), err)
				}
			}
		})
	}
	b.Run("open-migrate-check", func(b *testing.B) {
		for b.Loop() {
			o, err := Open(ctx, path, Options{})
			if err != nil {
				b.Fatal(err)
			}
			o.Close()
		}
	})
}

// BenchmarkAppendLog measures one durable log line (one transaction each).
func BenchmarkAppendLog(b *testing.B) {
	s, err := Open(context.Background(), filepath.Join(b.TempDir(), "log.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tk, err := s.CreateTask(context.Background(), task.NewTask{Prompt: "p"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := s.AppendLog(context.Background(), tk.ID, 0, task.LevelInfo, "a line of agent output, about sixty bytes long......"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClaimFinish measures a claim (task update, events, execution row)
// plus finishing that execution: the store's cost per step.
func BenchmarkClaimFinish(b *testing.B) {
	s, err := Open(context.Background(), filepath.Join(b.TempDir(), "claim.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		tk, err := s.CreateTask(ctx, task.NewTask{Prompt: "p"})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		ex, err := s.Claim(ctx, tk.ID, ClaimInfo{Role: task.RolePlanner, Model: "mock"})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.FinishExecution(ctx, ex.ID, task.OutcomeSucceeded, 0, task.Usage{TokensIn: 10}, false); err != nil {
			b.Fatal(err)
		}
	}
}
