package app

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/intake"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func newScheduleService(t *testing.T, now time.Time) (*ScheduleService, *store.Store, *RecordingEmitter, *int) {
	svc, st, rec, wakes, _ := newScheduleServiceIn(t, now)
	return svc, st, rec, wakes
}

// newScheduleServiceIn is newScheduleService that also returns the
// working directory of its settings (a git repository).
func newScheduleServiceIn(t *testing.T, now time.Time) (*ScheduleService, *store.Store, *RecordingEmitter, *int, string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "boof.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rec := &RecordingEmitter{}
	wakes := 0
	repo := newRepo(t)
	clock := func() time.Time { return now }
	svc := NewScheduleService(st, rec, context.Background, ScheduleDeps{
		Intake: intake.New(intake.Options{Store: st, Settings: settingsAt(t, repo).Load, Now: clock}),
		Wake:   func() { wakes++ },
		Now:    clock,
	})
	return svc, st, rec, &wakes, repo
}

// The Repeat option previews the next fires in the zone and refuses a bad
// expression with the sentence the CLI prints.
func TestSchedulePreviewShowsNextFiresAndRefusesBadInput(t *testing.T) {
	now := time.Date(2026, 12, 4, 2, 0, 0, 0, time.UTC) // Friday, 03:00 in Berlin
	svc, _, _, _ := newScheduleService(t, now)
	p, err := svc.Preview("0 2 * * 1-5", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"2026-12-07T01:00:00Z", "2026-12-08T01:00:00Z", "2026-12-09T01:00:00Z"}
	if p.Text != "weekdays at 02:00" || !slices.Equal(p.Next, want) {
		t.Fatalf("preview %+v", p)
	}
	for _, c := range []struct{ cron, tz, want string }{
		{"61 * * * *", "", `Invalid cron expression "61 * * * *"`},
		{"0 2 * *", "UTC", "expected five fields"},
		{"0 2 * * *", "Mars/Olympus", `Unknown time zone "Mars/Olympus"`},
		{"", "", "A schedule needs a cron expression"},
		{"@every 0s", "", `The interval of "@every 0s" must be at least 1m (a schedule fires at most once a minute).`},
		{"@every -5m", "UTC", `The interval of "@every -5m" must be at least 1m (a schedule fires at most once a minute).`},
	} {
		if _, err := svc.Preview(c.cron, c.tz); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Preview(%q, %q) = %v, want %q", c.cron, c.tz, err, c.want)
		}
	}
}

// A schedule made from the form is listed with its next fire and its task;
// pause clears the next fire, resume re-arms it, run now queues a task from
// the template and delete keeps the tasks it queued.
func TestScheduleServiceJourney(t *testing.T) {
	now := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
	svc, st, rec, wakes, repo := newScheduleServiceIn(t, now)
	ctx := context.Background()
	if _, err := svc.Create(ScheduleInput{Cron: "every night", Task: NewTaskInput{Prompt: "Update deps", Runs: 1}}); err == nil ||
		!strings.Contains(err.Error(), `Invalid cron expression "every night"`) {
		t.Fatalf("bad cron: %v", err)
	}
	if _, err := svc.Create(ScheduleInput{Cron: "@every 1s", Task: NewTaskInput{Prompt: "Update deps", Runs: 1}}); err == nil ||
		err.Error() != `The interval of "@every 1s" must be at least 1m (a schedule fires at most once a minute).` {
		t.Fatalf("an interval under a minute: %v", err)
	}
	if _, err := svc.Create(ScheduleInput{Cron: "0 2 * * *", Task: NewTaskInput{Prompt: " ", Runs: 1}}); err == nil || !strings.Contains(err.Error(), "Prompt is empty") {
		t.Fatalf("empty prompt: %v", err)
	}
	if all, _ := st.ListSchedules(ctx); len(all) != 0 {
		t.Fatalf("a refused schedule was stored: %+v", all)
	}
	v, err := svc.Create(ScheduleInput{Name: "Nightly deps", Cron: "30 2 * * *", TZ: "Europe/Berlin",
		Task: NewTaskInput{Title: "Update deps", Prompt: "Update the dependencies.", Runs: 1, Labels: []string{"chore"}}})
	if err != nil {
		t.Fatal(err)
	}
	if *wakes != 1 || v.Display != "Nightly deps" || v.CronText != "every day at 02:30" || v.NextFire == nil ||
		!v.NextFire.Equal(time.Date(2026, 12, 5, 1, 30, 0, 0, time.UTC)) || v.Template.Repo != repo {
		t.Fatalf("created %+v (wakes %d)", v, *wakes)
	}
	list, err := svc.List()
	if err != nil || len(list) != 1 || list[0].ID != v.ID || list[0].TZ != "Europe/Berlin" {
		t.Fatalf("list %+v %v", list, err)
	}

	p, err := svc.SetPaused(v.ID, true)
	if err != nil || !p.Paused || p.NextFire != nil {
		t.Fatalf("pause %+v %v", p, err)
	}
	if _, err := svc.RunNow(v.ID); err == nil || !strings.Contains(err.Error(), "is paused: resume it to run it now") {
		t.Fatalf("run now while paused: %v", err)
	}
	r, err := svc.SetPaused(v.ID, false)
	if err != nil || r.Paused || r.NextFire == nil {
		t.Fatalf("resume %+v %v", r, err)
	}

	tk, err := svc.RunNow(v.ID)
	if err != nil || tk.Status != task.StatusPending || tk.Prompt != "Update the dependencies." || tk.Repo != repo {
		t.Fatalf("run now: %+v %v", tk, err)
	}
	if n := len(rec.PayloadsOf(EventTasksChanged)); n != 1 {
		t.Fatalf("tasks:changed emitted %d times", n)
	}
	list, _ = svc.List()
	if list[0].LastTask == nil || list[0].LastTask.ID != tk.ID || list[0].LastFire == nil || !list[0].NextFire.Equal(*r.NextFire) {
		t.Fatalf("after run now %+v", list[0])
	}
	runs, _ := st.ScheduleRuns(ctx, v.ID, 0)
	if len(runs) != 1 || runs[0].Outcome != task.FireQueued || runs[0].TaskID != tk.ID || runs[0].Note != "run now from the window" {
		t.Fatalf("log %+v", runs)
	}

	log, err := svc.Log(v.ID)
	if err != nil || len(log) != 1 || log[0].TaskID != tk.ID {
		t.Fatalf("log %+v %v", log, err)
	}

	// An edit keeps the log and re-arms from now; a bad one changes nothing.
	if _, err := svc.Update(v.ID, ScheduleInput{Cron: "0 25 * * *", TZ: "UTC", Task: NewTaskInput{Prompt: "x", Runs: 1}}); err == nil ||
		!strings.Contains(err.Error(), "end of range (25) above maximum (23)") {
		t.Fatalf("bad edit: %v", err)
	}
	e, err := svc.Update(v.ID, ScheduleInput{Name: "", Cron: "0 9 * * 1-5", TZ: "UTC", Task: NewTaskInput{Title: "Deps", Prompt: "Update them all.", Runs: 2}})
	if err != nil || e.Display != "Deps" || e.CronText != "weekdays at 09:00" || e.Template.Runs != 2 || e.Template.Repo != repo ||
		!e.NextFire.Equal(time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)) || e.LastTask == nil {
		t.Fatalf("edit %+v %v", e, err)
	}
	if log, _ := svc.Log(v.ID); len(log) != 1 {
		t.Fatalf("the edit lost the log: %+v", log)
	}

	if err := svc.Delete(v.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Log(v.ID); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("log of a deleted schedule: %v", err)
	}
	if err := svc.Delete(v.ID); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("second delete: %v", err)
	}
	if list, _ := svc.List(); len(list) != 0 {
		t.Fatalf("deleted schedule listed: %+v", list)
	}
	if got, err := st.GetTask(ctx, tk.ID); err != nil || got.Status != task.StatusPending {
		t.Fatalf("the queued task was not kept: %+v %v", got, err)
	}
}

// A task with a start time ahead is listed as scheduled; the form's start
// time reaches the store.
func TestScheduledListsTasksWaitingForTheirStart(t *testing.T) {
	now := time.Now()
	svc, st, rec, _ := newScheduleService(t, now)
	deps, _ := withRepo(t, st)
	tasks := NewTaskService(st, rec, context.Background, deps)
	later, sooner := now.Add(3*time.Hour), now.Add(time.Hour)
	past := now.Add(-time.Hour)
	a, err := tasks.Create(NewTaskInput{Prompt: "Later", Runs: 1, NotBefore: &later})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tasks.Create(NewTaskInput{Prompt: "Sooner", Runs: 1, NotBefore: &sooner})
	if _, err := tasks.Create(NewTaskInput{Prompt: "Past start runs now", Runs: 1, NotBefore: &past}); err != nil {
		t.Fatal(err)
	}
	if _, err := tasks.Create(NewTaskInput{Prompt: "Any time", Runs: 1}); err != nil {
		t.Fatal(err)
	}
	got, err := svc.Scheduled()
	if err != nil || len(got) != 2 || got[0].ID != b.ID || got[1].ID != a.ID || !got[1].NotBefore.Equal(later.UTC().Truncate(time.Millisecond)) {
		t.Fatalf("scheduled %+v %v", got, err)
	}
	if _, err := svc.Create(ScheduleInput{Cron: "@daily", Task: NewTaskInput{Prompt: "x", Runs: 1, NotBefore: &later}}); err == nil ||
		!strings.Contains(err.Error(), "give a start time or a repeat, not both") {
		t.Fatalf("start time with repeat: %v", err)
	}
}
