package store

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// TestStopRequestCrossesProcesses sends a stop request from a child process
// (as the CLI would) and sees it here (as the runner would).
func TestStopRequestCrossesProcesses(t *testing.T) {
	if path := os.Getenv("BOOF_STORE_STOP_DB"); path != "" {
		s, err := Open(context.Background(), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.RequestStop(context.Background(), os.Getenv("BOOF_STORE_STOP_ID")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Inject(context.Background(), os.Getenv("BOOF_STORE_STOP_ID"), "also check the README"); err != nil {
			t.Fatal(err)
		}
		return
	}
	s, path := openTemp(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{})
	if _, err := s.Claim(ctx, tk.ID, ClaimInfo{Role: task.RoleDeveloper}); err != nil {
		t.Fatal(err)
	}
	if stop, err := s.StopRequested(ctx, tk.ID); err != nil || stop {
		t.Fatalf("stop before request: %v %v", stop, err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestStopRequestCrossesProcesses$", "-test.count=1")
	cmd.Env = append(os.Environ(), "BOOF_STORE_STOP_DB="+path, "BOOF_STORE_STOP_ID="+tk.ID)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if stop, err := s.StopRequested(ctx, tk.ID); err != nil || !stop {
		t.Fatalf("stop after request: %v %v", stop, err)
	}
	inj, err := s.ApplyInjections(ctx, tk.ID, "reviewer")
	if err != nil || len(inj) != 1 || inj[0].Text != "also check the README" || inj[0].Step != "reviewer" || inj[0].AppliedAt == nil {
		t.Fatalf("apply = %+v %v", inj, err)
	}
	if again, _ := s.ApplyInjections(ctx, tk.ID, "reviewer"); len(again) != 0 {
		t.Fatalf("applied twice: %+v", again)
	}
	secs, _ := s.Sections(ctx, tk.ID)
	last := secs[len(secs)-1]
	if last.Kind != task.SectionInjectedPrompt || last.Step != "reviewer" || last.Body != "also check the README" {
		t.Fatalf("section = %+v", last)
	}
	if _, err := s.Transition(ctx, tk.ID, task.StatusStopped, TransitionNote{Reason: "stopped by user"}); err != nil {
		t.Fatal(err)
	}
	if stop, _ := s.StopRequested(ctx, tk.ID); stop {
		t.Fatal("stop request outlived the run")
	}
	all, _ := s.Injections(ctx, tk.ID)
	if len(all) != 1 || all[0].AppliedAt == nil {
		t.Fatalf("injections = %+v", all)
	}
	if _, err := s.Inject(ctx, tk.ID, " "); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("empty inject: %v", err)
	}
	if _, err := s.ApplyInjections(ctx, tk.ID, "two words"); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("bad step: %v", err)
	}
}

func TestSectionsLogEvents(t *testing.T) {
	s, _ := openClock(t)
	ctx := context.Background()
	tk := mustCreate(t, s, task.NewTask{})
	sec, err := s.AddSection(ctx, task.Section{TaskID: tk.ID, Kind: task.SectionReviewerReport, Role: task.RoleReviewer, Iteration: 1, Round: 2, Verdict: "APPROVE", Body: "ok\nVERDICT: APPROVE"})
	if err != nil || sec.ID == 0 {
		t.Fatalf("add: %+v %v", sec, err)
	}
	for _, bad := range []task.Section{
		{TaskID: tk.ID, Kind: "novel", Body: "x"},
		{TaskID: tk.ID, Kind: task.SectionFinalPlan, Role: "boss"},
		{TaskID: tk.ID, Kind: task.SectionFinalPlan, Verdict: "A B"},
		{TaskID: tk.ID, Kind: task.SectionFinalPlan, Round: -1},
	} {
		if _, err := s.AddSection(ctx, bad); !errors.Is(err, task.ErrInvalid) {
			t.Errorf("AddSection(%+v): want ErrInvalid, got %v", bad, err)
		}
	}
	if _, err := s.AddSection(ctx, task.Section{TaskID: "0000000000000000", Kind: task.SectionFinalPlan}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing task: %v", err)
	}
	secs, _ := s.Sections(ctx, tk.ID)
	if len(secs) != 2 || secs[1].Verdict != "APPROVE" || secs[1].Round != 2 {
		t.Fatalf("sections = %+v", secs)
	}
	for i := range 5 {
		if err := s.AppendLog(ctx, tk.ID, 0, task.LevelInfo, "line "+string(rune('a'+i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AppendLog(ctx, tk.ID, 0, "loud", "x"); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("bad level: %v", err)
	}
	if err := s.AppendLog(ctx, "0000000000000000", 0, task.LevelInfo, "x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing task: %v", err)
	}
	page, _ := s.Log(ctx, tk.ID, 0, 3)
	rest, _ := s.Log(ctx, tk.ID, page[2].ID, 0)
	if len(page) != 3 || len(rest) != 2 || rest[1].Text != "line e" {
		t.Fatalf("log pages %+v %+v", page, rest)
	}
	mark := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return mark }
	verdict := task.VerdictGiven{Role: task.RoleReviewer, Iteration: 1, Round: 2, Verdict: task.VerdictApprove}
	if err := s.AppendEvent(ctx, tk.ID, verdict); err != nil {
		t.Fatal(err)
	}
	for name, d := range map[string]task.EventData{
		"no payload":  nil,
		"live kind":   task.AgentText{Text: "hello"},
		"unknown":     task.Unknown{Name: "mystery", Raw: []byte(`{}`)},
		"undecodable": task.Unknown{Name: task.EventVerdict, Raw: []byte(`"x"`)},
	} {
		if err := s.AppendEvent(ctx, tk.ID, d); !errors.Is(err, task.ErrInvalid) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if err := s.AppendEvent(ctx, "0000000000000000", verdict); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing task: %v", err)
	}
	evs, _ := s.Events(ctx, tk.ID, mark)
	if len(evs) != 1 || evs[0].Kind() != task.EventVerdict || evs[0].Data != verdict || !evs[0].At.Equal(mark) {
		t.Fatalf("events since mark = %+v", evs)
	}
	var raw string
	if err := s.db.QueryRow(`SELECT payload FROM events WHERE id = ?`, evs[0].ID).Scan(&raw); err != nil ||
		raw != `{"role":"reviewer","iteration":1,"round":2,"verdict":"APPROVE"}` {
		t.Fatalf("stored payload %s %v", raw, err)
	}
}
