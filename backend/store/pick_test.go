package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// The claim filter leaves out a task whose start time has not come and a
// task whose next step's tool is paused (by settings or the task's own
// override, for the step of its resume point), and keeps the queue order
// otherwise.
func TestNextClaimableWaitsForTimeAndTool(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	later := now.Add(time.Hour)
	mk := func(n task.NewTask) task.Task {
		t.Helper()
		tk, err := s.CreateTask(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	wait := mk(task.NewTask{Prompt: "at one", Priority: 9, NotBefore: &later})
	claude := mk(task.NewTask{Prompt: "claude planner", Priority: 8, Tools: task.Tools{task.RolePlanner: {Tool: "claude-code"}}})
	plain := mk(task.NewTask{Prompt: "mock", Priority: 7})
	roles := map[task.Role]string{}
	for _, r := range task.Roles {
		roles[r] = "mock"
	}
	next := func(p Pick) string {
		t.Helper()
		tk, err := s.NextClaimable(ctx, p)
		if errors.Is(err, ErrNotFound) {
			return ""
		}
		if err != nil {
			t.Fatal(err)
		}
		return tk.ID
	}
	if got := next(Pick{Now: now, RoleTools: roles}); got != claude.ID {
		t.Fatalf("before its time: got %s, want the claude task", got)
	}
	if got := next(Pick{Now: now, RoleTools: roles, Paused: []string{"claude-code"}}); got != plain.ID {
		t.Fatalf("claude paused: got %s", got)
	}
	if got := next(Pick{Now: now, RoleTools: roles, Paused: []string{"claude-code", "mock"}}); got != "" {
		t.Fatalf("every tool paused: got %s", got)
	}
	if got := next(Pick{Now: later, RoleTools: roles, Paused: []string{"claude-code"}}); got != wait.ID {
		t.Fatalf("at its time: got %s", got)
	}
	if at, ok, err := s.NextNotBefore(ctx, now); err != nil || !ok || !at.Equal(later) {
		t.Fatalf("next not-before %v %v %v", at, ok, err)
	}
	// Released at the developer: the developer's tool decides.
	if _, err := s.Claim(ctx, plain.ID, ClaimInfo{Runner: "t", Role: task.RolePlanner, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	rp := &task.ResumePoint{Iteration: 1, Step: "developer", Role: task.RoleDeveloper, Tool: "codex", Reason: task.ResumeLimit}
	if _, err := s.Release(ctx, plain.ID, rp, "usage limit", nil); err != nil {
		t.Fatal(err)
	}
	roles[task.RoleDeveloper] = "codex"
	if got := next(Pick{Now: now, RoleTools: roles, Paused: []string{"claude-code", "codex"}}); got != "" {
		t.Fatalf("developer's tool paused: got %s", got)
	}
	if got := next(Pick{Now: now, RoleTools: roles, Paused: []string{"claude-code"}}); got != plain.ID {
		t.Fatalf("released task: got %s", got)
	}
	nextStep := func(id string) string {
		t.Helper()
		var role, tool string
		if err := s.db.QueryRow(`SELECT next_role, next_tool FROM tasks WHERE id = ?`, id).Scan(&role, &tool); err != nil {
			t.Fatal(err)
		}
		return role + "/" + tool
	}
	if got := nextStep(plain.ID); got != "developer/" {
		t.Fatalf("released task's next step %s", got)
	}
	// An edit starts the run over (the resume point goes) with the tools it sets.
	edit := TaskEdit{Prompt: "mock", Priority: 7, Runs: 1, Tools: task.Tools{task.RolePlanner: {Tool: "claude-code"}, task.RoleDeveloper: {Tool: "mock"}}}
	if _, err := s.UpdateTask(ctx, plain.ID, edit); err != nil {
		t.Fatal(err)
	}
	if got := nextStep(plain.ID); got != "planner/claude-code" {
		t.Fatalf("edited task's next step %s", got)
	}
	if got := next(Pick{Now: now, RoleTools: roles, Paused: []string{"claude-code"}}); got != "" {
		t.Fatalf("edited to the paused tool: got %s", got)
	}
	if _, err := s.Release(ctx, plain.ID, rp, "usage limit", nil); err == nil {
		t.Fatal("a pending task was released")
	}
	if _, err := s.Claim(ctx, plain.ID, ClaimInfo{Runner: "t", Role: task.RolePlanner, Tool: "claude-code"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Release(ctx, plain.ID, rp, "usage limit", nil); err != nil {
		t.Fatal(err)
	}
	if got := nextStep(plain.ID); got != "developer/mock" {
		t.Fatalf("released at its own developer tool: %s", got)
	}
	if got := next(Pick{Now: now, RoleTools: roles, Paused: []string{"claude-code", "codex"}}); got != plain.ID {
		t.Fatalf("its own developer tool runs: got %s", got)
	}
	if err := s.DropResume(ctx, plain.ID); err != nil {
		t.Fatal(err)
	}
	if got := nextStep(plain.ID); got != "planner/claude-code" {
		t.Fatalf("resume dropped: %s", got)
	}
}

// A paused tool's tasks that switch tools on a usage limit (their own
// on-limit, or settings') are still claimed when the tool is switchable
// (its other tool installed and not paused); those that wait are not.
func TestNextClaimableSwitchesPastAPausedTool(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	claude := task.Tools{task.RolePlanner: {Tool: "claude-code"}}
	mk := func(prio int, o task.OnLimit, tools task.Tools) task.Task {
		t.Helper()
		tk, err := s.CreateTask(ctx, task.NewTask{Prompt: "p", Priority: prio, OnLimit: o, Tools: tools})
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	wait := mk(9, task.OnLimitWait, claude)
	dflt := mk(8, task.OnLimitDefault, nil) // planner from settings: claude-code
	sw := mk(7, task.OnLimitSwitch, claude)
	roles := map[task.Role]string{}
	for _, r := range task.Roles {
		roles[r] = "claude-code"
	}
	next := func(p Pick) string {
		t.Helper()
		tk, err := s.NextClaimable(ctx, p)
		if errors.Is(err, ErrNotFound) {
			return ""
		}
		if err != nil {
			t.Fatal(err)
		}
		return tk.ID
	}
	paused := []string{"claude-code"}
	if got := next(Pick{Now: now, RoleTools: roles, Paused: paused}); got != "" {
		t.Fatalf("not switchable: got %s", got)
	}
	if got := next(Pick{Now: now, RoleTools: roles, Paused: paused, Switchable: paused}); got != sw.ID {
		t.Fatalf("switchable: got %s, want the switching task", got)
	}
	if got := next(Pick{Now: now, RoleTools: roles, Paused: paused, Switchable: paused, SwitchByDefault: true}); got != dflt.ID {
		t.Fatalf("settings switch: got %s, want the task without its own on-limit", got)
	}
	if got := next(Pick{Now: now, RoleTools: roles}); got != wait.ID {
		t.Fatalf("nothing paused: got %s", got)
	}
}

// A second limit never shortens a pause; the user can end it early; an
// ended pause is no pause.
func TestToolPauses(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	long := task.ToolPause{Tool: "claude-code", Until: now.Add(3 * time.Hour), PausedAt: now, Reason: "usage limit"}
	if _, err := s.PauseTool(ctx, long); err != nil {
		t.Fatal(err)
	}
	short := long
	short.Until = now.Add(time.Hour)
	got, err := s.PauseTool(ctx, short)
	if err != nil || !got.Until.Equal(long.Until) {
		t.Fatalf("a shorter pause replaced a longer one: %+v %v", got, err)
	}
	if _, err := s.PauseTool(ctx, task.ToolPause{Tool: "x"}); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("pause without an end: %v", err)
	}
	if ps, _ := s.ToolPauses(ctx, now.Add(4*time.Hour)); len(ps) != 0 {
		t.Fatalf("ended pause still in force: %+v", ps)
	}
	if _, err := s.ResumeTool(ctx, "claude-code", now); err != nil {
		t.Fatal(err)
	}
	var np *NotPausedError
	if _, err := s.ResumeTool(ctx, "claude-code", now); !errors.As(err, &np) {
		t.Fatalf("second resume: %v", err)
	}
}

// BenchmarkPickNextWithLimits measures the claim filter on 100k tasks (10k
// pending; the first 5,000 of them in queue order plan with the paused tool,
// the worst case; a tenth not yet due) with 1,000 schedules, against plain
// pick-next in the same run (goal ≤ 2 ms).
func BenchmarkPickNextWithLimits(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "bench.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		ins, err := tx.PrepareContext(ctx, `INSERT INTO tasks (id, title, prompt, status, priority, tools, not_before, created_at, updated_at)
			VALUES (?, '', 'p', ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for i := range 100_000 {
			status, tools, nb := "done", "{}", any(nil)
			if i%10 == 0 {
				status = "pending"
				if i < 50_000 { // half the pending tasks plan with the paused tool, and they come first
					tools = `{"planner":{"tool":"claude-code"}}`
				}
				if (i/10)%10 == 1 {
					nb = now.Add(time.Hour).UnixMilli()
				}
			}
			at := now.Add(-time.Duration(100_000-i) * time.Second).UnixMilli()
			if _, err := ins.ExecContext(ctx, fmt.Sprintf("%016d", i), status, 0, tools, nb, at, at); err != nil {
				return err
			}
		}
		sins, err := tx.PrepareContext(ctx, `INSERT INTO schedules (id, cron, tz, template, next_fire, created_at, updated_at)
			VALUES (?, '0 2 * * *', 'UTC', '{"prompt":"p"}', ?, 0, 0)`)
		if err != nil {
			return err
		}
		defer sins.Close()
		for i := range 1000 {
			if _, err := sins.ExecContext(ctx, fmt.Sprintf("s%015d", i), now.Add(time.Duration(i+1)*time.Minute).UnixMilli()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	roles := map[task.Role]string{}
	for _, r := range task.Roles {
		roles[r] = "mock"
	}
	b.Run("next-pending-baseline", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.NextPending(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("next-claimable-paused-tool", func(b *testing.B) {
		p := Pick{Now: now, RoleTools: roles, Paused: []string{"claude-code"}}
		for b.Loop() {
			if _, err := s.NextClaimable(ctx, p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("next-claimable-paused-tool-switchable", func(b *testing.B) {
		p := Pick{Now: now, RoleTools: roles, Paused: []string{"claude-code"}, Switchable: []string{"claude-code"}}
		for b.Loop() {
			if _, err := s.NextClaimable(ctx, p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("due-schedules-and-next-fire", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.DueSchedules(ctx, now, 0); err != nil {
				b.Fatal(err)
			}
			if _, _, err := s.NextScheduleFire(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// undoNextStep drops what the next-step migration adds (its triggers name
// task_resume, so it goes before undoLimits).
const undoNextStep = `DROP TRIGGER tasks_next_step_insert; DROP TRIGGER tasks_next_step_tools;
	DROP TRIGGER task_resume_next_step_insert; DROP TRIGGER task_resume_next_step_update; DROP TRIGGER task_resume_next_step_delete;
	DROP INDEX tasks_next_tool; DROP INDEX tasks_next_role; DROP INDEX tasks_next_tool_switch; DROP INDEX tasks_next_role_switch; ALTER TABLE tasks DROP COLUMN next_role; ALTER TABLE tasks DROP COLUMN next_tool; `

// undoLimits drops what the limits and schedules migration adds, so that a
// test can reopen an older schema.
const undoLimits = `DROP TABLE schedule_runs; DROP TABLE schedules; DROP TABLE task_resume; DROP TABLE tool_pauses;
	ALTER TABLE executions DROP COLUMN session_id; ALTER TABLE tasks DROP COLUMN not_before;
	ALTER TABLE tasks DROP COLUMN on_limit; ALTER TABLE tasks DROP COLUMN schedule_id; `
