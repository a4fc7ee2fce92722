package runner_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/schedule"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func (r *root) scheduled(id string) []task.Task {
	r.t.Helper()
	all, err := r.st.ListTasks(context.Background(), store.Filter{Limit: 1000})
	if err != nil {
		r.t.Fatal(err)
	}
	var out []task.Task
	for _, t := range all {
		if t.ScheduleID == id {
			out = append(out, t)
		}
	}
	return out
}

// A schedule fires at its time in its zone through the real queue: a
// sleeping schedule holds no runner slot, a fire whose previous task has
// not run yet is skipped and logged, fires missed while the app was closed
// run once at start (or are only logged with runner.runMissedSchedules
// off), and a clock that jumps back re-arms it.
func TestScheduleFiresOnTimeSkipsAndCatchesUp(t *testing.T) {
	r := newRoot(t, nil)
	ctx := context.Background()
	clk := &clock{t: time.Date(2026, 12, 2, 0, 30, 0, 0, time.UTC)} // 01:30 in Berlin
	sc, err := schedule.Create(ctx, r.st, task.Schedule{Name: "nightly chore", Cron: "0 2 * * *", TZ: "Europe/Berlin",
		Template: task.NewTask{Prompt: "Nightly chore.", Runs: 1}}, clk.Now())
	if err != nil {
		t.Fatal(err)
	}
	firstFire := time.Date(2026, 12, 2, 1, 0, 0, 0, time.UTC) // 02:00 in Berlin
	if sc.NextFire == nil || !sc.NextFire.Equal(firstFire) {
		t.Fatalf("next fire %v", sc.NextFire)
	}

	// Sleeping: nothing fires, and a plain task runs in the one slot.
	plain := r.add("Plain work.", 1)
	r.runUntilIdle(clk)
	if got := r.get(plain.ID); got.Status != task.StatusDone {
		t.Fatalf("plain task while the schedule sleeps: %s", got.Status)
	}
	if n := len(r.scheduled(sc.ID)); n != 0 {
		t.Fatalf("fired early: %d tasks", n)
	}

	// On time: one task from the template, which runs.
	clk.Set(firstFire.Add(20 * time.Second))
	r.runUntilIdle(clk)
	tasks := r.scheduled(sc.ID)
	if len(tasks) != 1 || tasks[0].Status != task.StatusDone || tasks[0].Prompt != "Nightly chore." {
		t.Fatalf("after the first fire: %+v", tasks)
	}
	if evs := r.events(tasks[0].ID, task.EventScheduled); len(evs) != 1 || !evs[0].Data.(task.ScheduleFired).Due.Equal(firstFire) {
		t.Fatalf("scheduled events %+v", evs)
	}
	got, _ := r.st.GetSchedule(ctx, sc.ID)
	if !got.NextFire.Equal(firstFire.Add(24 * time.Hour)) {
		t.Fatalf("re-armed for %v", got.NextFire)
	}

	// The next fire's task cannot start (its tool is paused): the fire
	// after it is skipped, and says why.
	if _, err := r.st.PauseTool(ctx, task.ToolPause{Tool: "mock", Until: clk.Now().Add(30 * 24 * time.Hour), Reason: "usage limit"}); err != nil {
		t.Fatal(err)
	}
	clk.Set(firstFire.Add(24*time.Hour + 10*time.Second))
	r.runUntilIdle(clk)
	clk.Set(firstFire.Add(48*time.Hour + 10*time.Second))
	r.runUntilIdle(clk)
	tasks = r.scheduled(sc.ID)
	if len(tasks) != 2 {
		t.Fatalf("%d tasks after a skipped fire", len(tasks))
	}
	runs, _ := r.st.ScheduleRuns(ctx, sc.ID, 0)
	if runs[0].Outcome != task.FireSkipped || !strings.Contains(runs[0].Note, "is still pending") {
		t.Fatalf("last log entry %+v", runs[0])
	}

	// The app is closed for three fires: at start they run once.
	if _, err := r.st.ResumeTool(ctx, "mock", clk.Now()); err != nil {
		t.Fatal(err)
	}
	r.runUntilIdle(clk) // the waiting task runs
	clk.Set(firstFire.Add(5*24*time.Hour + 5*time.Minute))
	r.runUntilIdle(clk)
	tasks = r.scheduled(sc.ID)
	if len(tasks) != 3 {
		t.Fatalf("%d tasks after the catch-up (want one more)", len(tasks))
	}
	runs, _ = r.st.ScheduleRuns(ctx, sc.ID, 0)
	if runs[0].Outcome != task.FireCaughtUp || !strings.Contains(runs[0].Note, "3 fire(s) missed") {
		t.Fatalf("catch-up entry %+v", runs[0])
	}

	// With runner.runMissedSchedules off, missed fires are only logged.
	if res := r.cli(ctx, "settings", "set", "runner.runMissedSchedules", "false"); res.code != 0 {
		t.Fatalf("settings set: %+v", res)
	}
	clk.Set(firstFire.Add(8*24*time.Hour + 5*time.Minute))
	r.runUntilIdle(clk)
	if n := len(r.scheduled(sc.ID)); n != 3 {
		t.Fatalf("%d tasks: missed fires ran with runMissedSchedules off", n)
	}
	runs, _ = r.st.ScheduleRuns(ctx, sc.ID, 0)
	if runs[0].Outcome != task.FireMissed {
		t.Fatalf("missed entry %+v", runs[0])
	}
	got, _ = r.st.GetSchedule(ctx, sc.ID)
	if !got.NextFire.Equal(firstFire.Add(9 * 24 * time.Hour)) {
		t.Fatalf("after the missed fires, next fire %v", got.NextFire)
	}
}

// A clock that went back (here while the app was closed) re-arms a
// schedule for its first fire after the new time instead of leaving it
// asleep until the old one.
func TestScheduleRearmedWhenTheClockGoesBack(t *testing.T) {
	r := newRoot(t, nil)
	ctx := context.Background()
	clk := &clock{t: time.Date(2026, 12, 10, 12, 0, 0, 0, time.UTC)}
	sc, err := schedule.Create(ctx, r.st, task.Schedule{Cron: "0 2 * * *", Template: task.NewTask{Prompt: "Daily.", Runs: 1}}, clk.Now())
	if err != nil {
		t.Fatal(err)
	}
	clk.Set(time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC))
	r.runUntilIdle(clk)
	got, _ := r.st.GetSchedule(ctx, sc.ID)
	if want := time.Date(2026, 12, 8, 2, 0, 0, 0, time.UTC); got.NextFire == nil || !got.NextFire.Equal(want) {
		t.Fatalf("after the clock went back: next fire %v, want %v (was %v)", got.NextFire, want, sc.NextFire)
	}
	if n := len(r.scheduled(sc.ID)); n != 0 {
		t.Fatalf("the re-arm fired %d tasks", n)
	}
}
