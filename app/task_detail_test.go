package app

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// The history the editor shows is the stored events, typed: each entry's
// kind and payload as the pipeline and the store wrote them; an injection
// an event says reached the live session is marked live; a row this
// version cannot read keeps its raw payload.
func TestTaskHistoryFromStoredEvents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "boof.db")
	st, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	deps, _ := withRepo(t, st)
	svc := NewTaskService(st, &RecordingEmitter{}, context.Background, deps)
	tk, err := svc.Create(NewTaskInput{Prompt: "history"})
	if err != nil {
		t.Fatal(err)
	}
	live, _ := st.Inject(ctx, tk.ID, "steer live")
	queued, _ := st.Inject(ctx, tk.ID, "steer later")
	for _, d := range []task.EventData{
		task.StepStarted{StepAttempt: task.StepAttempt{Execution: 1, Step: "developer", Role: task.RoleDeveloper, Iteration: 1, Attempt: 1}, Tool: "mock"},
		task.InjectionApplied{Injection: live.ID, Step: "developer", Delivery: task.DeliveryLive},
		task.InjectionApplied{Injection: queued.ID, Step: "reviewer-1", Delivery: task.DeliveryNextStep},
		task.VerdictGiven{Role: task.RoleReviewer, Iteration: 1, Round: 1, Verdict: task.VerdictApprove},
	} {
		if err := st.AppendEvent(ctx, tk.ID, d); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`INSERT INTO events (task_id, at, kind, payload) VALUES (?, 4102444800000, 'from_the_future', '{"x":1}')`, tk.ID); err != nil {
		t.Fatal(err)
	}

	d, err := svc.Get(tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []task.EventKind
	for _, e := range d.Events {
		kinds = append(kinds, e.Kind)
		if e.Data.Kind() != e.Kind || e.At.IsZero() {
			t.Fatalf("entry %+v", e)
		}
	}
	want := []task.EventKind{task.EventCreated, task.EventPromptInjected, task.EventPromptInjected, task.EventStepStarted,
		task.EventInjectionApplied, task.EventInjectionApplied, task.EventVerdict, "from_the_future"}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("history kinds %v, want %v", kinds, want)
	}
	if v, ok := d.Events[6].Data.(task.VerdictGiven); !ok || v.Verdict != task.VerdictApprove || v.Role != task.RoleReviewer {
		t.Fatalf("verdict entry %+v", d.Events[6].Data)
	}
	delivery := map[string]string{}
	for _, in := range d.Injections {
		delivery[in.Text] = in.Delivery
	}
	if delivery["steer live"] != "live" || delivery["steer later"] != "next_step" || d.Injections[0].ID != strconv.FormatInt(live.ID, 10) {
		t.Fatalf("injections %+v", d.Injections)
	}
	b, err := json.Marshal(d.Events)
	if err != nil {
		t.Fatal(err)
	}
	var js []struct {
		Kind string          `json:"kind"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &js); err != nil {
		t.Fatal(err)
	}
	if js[6].Kind != "verdict" || string(js[6].Data) != `{"role":"reviewer","iteration":1,"round":1,"verdict":"APPROVE"}` ||
		js[7].Kind != "from_the_future" || string(js[7].Data) != `{"x":1}` || string(js[0].Data) != `{"status":"pending"}` {
		t.Fatalf("history JSON %s", b)
	}
}

// A verification run is one of the task's reports (role verify, its
// outcome the verdict), after the developer's.
func TestVerificationIsAReport(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "boof.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	deps, _ := withRepo(t, st)
	svc := NewTaskService(st, &RecordingEmitter{}, context.Background, deps)
	tk, err := svc.Create(NewTaskInput{Prompt: "verified"})
	if err != nil {
		t.Fatal(err)
	}
	vr := task.VerifyRun{Command: "./check.sh", Outcome: task.VerifyFailed, ExitCode: 1, DurationMs: 1500, Tail: "FAIL: marker"}
	for _, sec := range []task.Section{
		{TaskID: tk.ID, Kind: task.SectionDeveloperReport, Role: task.RoleDeveloper, Iteration: 1, Body: "done"},
		{TaskID: tk.ID, Kind: task.SectionVerification, Role: task.RoleVerify, Iteration: 1, Round: 1, Verdict: string(vr.Outcome), Step: "verify-1", Body: vr.Body()},
	} {
		if _, err := st.AddSection(ctx, sec); err != nil {
			t.Fatal(err)
		}
	}
	d, err := svc.Get(tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Reports) != 2 || d.Reports[1].Role != task.RoleVerify || d.Reports[1].Verdict != "failed" || d.Reports[1].Round != 1 {
		t.Fatalf("reports %+v", d.Reports)
	}
	if b := d.Reports[1].Body; !strings.Contains(b, "Command: `./check.sh`") || !strings.Contains(b, "Exit status: 1") || !strings.Contains(b, "FAIL: marker") {
		t.Fatalf("body %q", b)
	}
}
