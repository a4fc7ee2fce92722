package app

import (
	"context"
	"testing"
)

// A schedule made from the New task form with a repository chosen (not the
// settings' working directory) fires its tasks in that repository: the
// template keeps it. It was dropped, so the schedule ran in the working
// directory instead.
func TestScheduleKeepsTheRepositoryChosen(t *testing.T) {
	st := newTestStore(t)
	rec := &RecordingEmitter{}
	workdir, chosen := newRepo(t), newRepo(t)
	schedules := NewScheduleService(st, rec, context.Background, ScheduleDeps{Intake: intakeOf(st, settingsAt(t, workdir))})
	sc, err := schedules.Create(ScheduleInput{Cron: "30 2 * * *", Task: NewTaskInput{Prompt: "nightly", Runs: 1, Repo: chosen}})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := st.GetSchedule(context.Background(), sc.ID)
	if err != nil || stored.Template.Repo != chosen {
		t.Fatalf("the template's repository is %q, want %q (%v)", stored.Template.Repo, chosen, err)
	}
	fired, err := schedules.RunNow(sc.ID)
	if err != nil || fired.Repo != chosen {
		t.Fatalf("the task it queued runs in %q, want %q (%v)", fired.Repo, chosen, err)
	}
}
