package store

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// A history written before the event kinds were declared once (schema 2)
// is read back typed: migration 3 gives the pipeline's mid-run questions and
// answers their own kinds, and rows no version knows stay readable.
func TestLegacyEventsMigrateAndDecode(t *testing.T) {
	s, path := openTemp(t)
	ctx := context.Background()
	tk, err := s.CreateTask(ctx, task.NewTask{Prompt: "old history"})
	if err != nil {
		t.Fatal(err)
	}
	legacy := []struct{ kind, payload string }{
		{"question_asked", `{"role":"developer","questions":["Which file?"],"internal":true}`},
		{"answered", `{"role":"developer","internal":true}`},
		{"question_asked", `{"count":2}`},
		{"answered", `{"bytes":12}`},
		{"step_started", `{"execution":3,"role":"planner","iteration":1,"round":0,"attempt":1,"tool":"mock","model":""}`},
		{"recovered", `{"reason":"interrupted","at":"2026-11-30T00:41:00Z"}`},
		{"mystery", `{"x":1}`},
		{"answered", `not json`},
	}
	for i, l := range legacy {
		if _, err := s.db.Exec(`INSERT INTO events (task_id, at, kind, payload) VALUES (?, ?, ?, ?)`, tk.ID, 2_000_000_000_000+int64(i), l.kind, l.payload); err != nil {
			t.Fatal(err)
		}
	}
	// Back to a version-2 database: drop what the later migrations add, so
	// that reopening applies them again.
	if _, err := s.db.Exec(undoRemoteRuns + undoReviewDrafts + undoPullRequests + undoCleanupsLeft + undoNextStep + undoFixRuns + `DROP TABLE decided_outcomes; ALTER TABLE executions DROP COLUMN pid_starts; DROP TABLE spend; ` + undoLimits + undoTaskContent); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`PRAGMA user_version = 2`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if v := userVersion(t, path); v != LatestSchema() || v < 3 {
		t.Fatalf("user_version %d", v)
	}
	evs, err := s2.Events(ctx, tk.ID, time.UnixMilli(2_000_000_000_000))
	if err != nil {
		t.Fatal(err)
	}
	var got []task.EventData
	for _, e := range evs {
		got = append(got, e.Data)
	}
	want := []task.EventData{
		task.PlannerAsked{Role: task.RoleDeveloper, Questions: []string{"Which file?"}},
		task.PlannerAnswered{Role: task.RoleDeveloper},
		task.QuestionsAsked{Count: 2},
		task.Answered{Bytes: 12},
		task.StepStarted{StepAttempt: task.StepAttempt{Execution: 3, Role: task.RolePlanner, Iteration: 1, Attempt: 1}, Tool: "mock"},
		task.Recovered{Reason: "interrupted", At: time.Date(2026, 11, 30, 0, 41, 0, 0, time.UTC)},
		task.Unknown{Name: "mystery", Raw: json.RawMessage(`{"x":1}`)},
		task.Unknown{Name: task.EventAnswered, Raw: json.RawMessage(`not json`)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("events after migration:\n%#v\nwant\n%#v", got, want)
	}
	var internal int
	if err := s2.db.QueryRow(`SELECT count(*) FROM events WHERE payload LIKE '%internal%'`).Scan(&internal); err != nil || internal != 0 {
		t.Fatalf("%d rows keep the internal flag (%v)", internal, err)
	}
}

// undoFixRuns takes a database back before 0010_fix_runs (for tests that
// reopen an older version); decided_outcomes must still exist.
const undoFixRuns = `DROP TABLE change_requests; ALTER TABLE tasks DROP COLUMN run_start; ALTER TABLE tasks DROP COLUMN fix_runs; ` +
	`ALTER TABLE decided_outcomes DROP COLUMN count_fix; `
