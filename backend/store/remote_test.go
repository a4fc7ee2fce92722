package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// undoRemoteRuns drops what the remote-runs migration adds, so that a test
// can reopen an older schema.
const undoRemoteRuns = `DROP TABLE remote_runs; ALTER TABLE tasks DROP COLUMN executor; `

// A task's rows go to a pod's store through JSON and come out as the same
// task, pending and run there, with its sections, its repository's verify
// command and its injected prompts not yet applied under their ids.
func TestSeedTaskCopiesTheTaskAsPending(t *testing.T) {
	ctx := context.Background()
	desk, _ := openTemp(t)
	tk := mustCreate(t, desk, task.NewTask{Prompt: "Ship it.", Title: "Seeded", Repo: "/home/u/repo", Executor: task.ExecutorKubernetes,
		Labels: []string{"x"}, Verify: "make check"})
	if _, err := desk.SetRepoVerify(ctx, "/home/u/repo", "go test ./..."); err != nil {
		t.Fatal(err)
	}
	inj, err := desk.Inject(ctx, tk.ID, "Also the docs.")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := desk.Claim(ctx, tk.ID, ClaimInfo{Iteration: 1, Role: task.RolePlanner, Attempt: 1}); err != nil {
		t.Fatal(err)
	}
	rows, err := desk.ExportTaskRows(ctx, tk.ID, "/home/u/repo")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	var back TaskRows
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&back); err != nil {
		t.Fatal(err)
	}
	pod, _ := openTemp(t)
	got, err := pod.SeedTask(ctx, back, "/work/repo")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != tk.ID || got.Status != task.StatusPending || got.Repo != "/work/repo" || got.Executor != "" ||
		got.Prompt != tk.Prompt || got.Title != tk.Title || got.CreatedAt != tk.CreatedAt {
		t.Fatalf("seeded %+v from %+v", got, tk)
	}
	ds, _ := desk.Sections(ctx, tk.ID)
	ps, _ := pod.Sections(ctx, tk.ID)
	if len(ds) != len(ps) || ps[0].ID != ds[0].ID || ps[0].Body != ds[0].Body {
		t.Fatalf("sections %+v, want %+v", ps, ds)
	}
	if v, ok, err := pod.TaskVerify(ctx, tk.ID); err != nil || !ok || v.Command != "make check" {
		t.Fatalf("task verify %+v %v %v", v, ok, err)
	}
	if v, err := pod.GetRepoVerify(ctx, "/work/repo"); err != nil || v.Command != "go test ./..." {
		t.Fatalf("repo verify %+v %v", v, err)
	}
	pend, err := pod.PendingInjections(ctx, tk.ID)
	if err != nil || len(pend) != 1 || pend[0].ID != inj.ID || pend[0].Text != inj.Text {
		t.Fatalf("injections %+v %v, want %+v", pend, err, inj)
	}
	if _, err := pod.SeedTask(ctx, back, "/work/repo"); !errors.Is(err, ErrExists) {
		t.Fatalf("seeding twice: %v", err)
	}
	delete(back, "sections")
	back["evil; DROP TABLE tasks"] = nil
	if _, err := (func() (task.Task, error) { s, _ := openTemp(t); return s.SeedTask(ctx, back, "/r") })(); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("an unknown table: %v", err)
	}
}

// Each record of a pod's stream is applied once, in one transaction with
// the run's last sequence number: the pod's first step takes over the
// claim's execution, later ones open their own, the step events name this
// store's executions, and an injection the pod applied is applied here
// with its section.
func TestApplyRemoteAppliesEachRecordOnce(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	tk := mustCreate(t, s, task.NewTask{Prompt: "Remote."})
	inj, err := s.Inject(ctx, tk.ID, "Hurry.")
	if err != nil {
		t.Fatal(err)
	}
	first, err := s.Claim(ctx, tk.ID, ClaimInfo{Iteration: 1, Role: task.RolePlanner, Attempt: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.ApplyRemote(ctx, tk.ID, RemoteRecord{Seq: 1}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no remote run: %v", err)
	}
	if err := s.StartRemoteRun(ctx, RemoteRun{TaskID: tk.ID, Iteration: 1, Job: "j", Namespace: "ns", FirstExec: first.ID}); err != nil {
		t.Fatal(err)
	}
	step := func(pod int64, role task.Role) *task.Execution {
		return &task.Execution{ID: pod, Role: role, Iteration: 1, Attempt: 1, Tool: "mock"}
	}
	started := func(pod int64, role task.Role) task.StepStarted {
		return task.StepStarted{StepAttempt: task.StepAttempt{Execution: pod, Role: role, Iteration: 1, Attempt: 1}, Tool: "mock"}
	}
	apply := func(rec RemoteRecord) (int64, bool) {
		t.Helper()
		id, ok, err := s.ApplyRemote(ctx, tk.ID, rec)
		if err != nil {
			t.Fatal(err)
		}
		return id, ok
	}
	if id, ok := apply(RemoteRecord{Seq: 1, Step: step(1, task.RolePlanner), Event: started(1, task.RolePlanner)}); !ok || id != first.ID {
		t.Fatalf("first step: %d %v, want the claim's %d", id, ok, first.ID)
	}
	if id, ok := apply(RemoteRecord{Seq: 1, Step: step(1, task.RolePlanner), Event: started(1, task.RolePlanner)}); ok || id != first.ID {
		t.Fatalf("the same record again: %d %v", id, ok)
	}
	apply(RemoteRecord{Seq: 2, Exec: 1, Log: &task.LogLine{Level: task.LevelInfo, Text: "planning"}})
	apply(RemoteRecord{Seq: 3, Exec: 1, StepEnd: &task.StepFinished{Outcome: task.OutcomeSucceeded, Usage: task.Usage{TokensIn: 5}},
		Event: task.StepFinished{StepAttempt: task.StepAttempt{Execution: 1, Role: task.RolePlanner, Iteration: 1, Attempt: 1}, Outcome: task.OutcomeSucceeded}})
	dev, _ := apply(RemoteRecord{Seq: 4, Step: step(2, task.RoleDeveloper), Event: started(2, task.RoleDeveloper)})
	if dev == first.ID || dev == 0 {
		t.Fatalf("the second step took execution %d", dev)
	}
	apply(RemoteRecord{Seq: 5, Exec: 2, Injection: &task.InjectionApplied{Injection: inj.ID, Step: "developer"},
		Event: task.InjectionApplied{Injection: inj.ID, Step: "developer"}, Sections: []task.Section{{Kind: task.SectionPlannerReport, Role: task.RolePlanner, Iteration: 1, Body: "plan"}},
		Refs: map[string]string{"refs/heads/boof-runner/" + tk.ID: "abc"}})

	rr, ok, err := s.GetRemoteRun(ctx, tk.ID)
	if err != nil || !ok || rr.LastSeq != 5 || rr.Execs[1] != first.ID || rr.Execs[2] != dev || rr.Refs["refs/heads/boof-runner/"+tk.ID] != "abc" {
		t.Fatalf("remote run %+v %v %v", rr, ok, err)
	}
	execs, _ := s.Executions(ctx, tk.ID)
	if len(execs) != 2 || execs[0].EndedAt == nil || execs[0].Usage.TokensIn != 5 || execs[1].EndedAt != nil {
		t.Fatalf("executions %+v", execs)
	}
	evs, _ := s.Events(ctx, tk.ID, time.Time{})
	var stepExecs []int64
	for _, e := range evs {
		switch d := e.Data.(type) {
		case task.StepStarted:
			stepExecs = append(stepExecs, d.Execution)
		case task.StepFinished:
			stepExecs = append(stepExecs, d.Execution)
		}
	}
	if len(stepExecs) != 3 || stepExecs[0] != first.ID || stepExecs[1] != first.ID || stepExecs[2] != dev {
		t.Fatalf("step events name executions %v", stepExecs)
	}
	if pend, _ := s.PendingInjections(ctx, tk.ID); len(pend) != 0 {
		t.Fatalf("the injection is still pending: %+v", pend)
	}
	secs, _ := s.Sections(ctx, tk.ID)
	kinds := []task.SectionKind{}
	for _, sec := range secs {
		kinds = append(kinds, sec.Kind)
	}
	if len(secs) != 3 || kinds[1] != task.SectionPlannerReport || kinds[2] != task.SectionInjectedPrompt || secs[2].Body != "Hurry." {
		t.Fatalf("sections %v", kinds)
	}
	logs, _ := s.Log(ctx, tk.ID, 0, 0)
	if len(logs) != 1 || logs[0].ExecID != first.ID {
		t.Fatalf("log %+v", logs)
	}
}
