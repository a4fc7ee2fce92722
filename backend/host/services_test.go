package host_test

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Open builds every service once, with its clock: the intake arms a
// schedule from the injected time, and the merge queue shares the host's
// review service and lands with a verify runner, built in one piece.
// Without the lock, NewServices builds the same services.
func TestOpenBuildsTheServicesWithItsClock(t *testing.T) {
	paths := newPaths(t)
	st, err := store.Open(t.Context(), paths.Database(), store.Options{AttachmentsDir: paths.Attachments()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	repo := newRepo(t)
	at := time.Date(2031, 3, 1, 10, 0, 0, 0, time.UTC)
	o := host.Options{Paths: paths, Store: st, Exe: os.Args[0], Now: func() time.Time { return at }}
	h, err := host.Open(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	daily := task.Schedule{Cron: "0 12 * * *", TZ: "UTC", Template: task.NewTask{Prompt: "Daily.", Runs: 1, Repo: repo}}
	sc, err := h.Intake.Schedule(t.Context(), daily, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := at.Add(2 * time.Hour); sc.NextFire == nil || !sc.NextFire.Equal(want) {
		t.Errorf("the host's intake armed the schedule for %v, want %v (its clock)", sc.NextFire, want)
	}
	if h.Queue.Review != h.Review || h.Queue.Verify == nil || h.Queue.Scope != h.Scope || h.Queue.Store != st {
		t.Errorf("merge queue not built from the host's services: %+v", h.Queue)
	}
	if h.Settings.Path() != paths.Settings() {
		t.Errorf("settings file %s, want %s", h.Settings.Path(), paths.Settings())
	}

	// Another process's view of the same data root: no lock, same services.
	var locked *runner.LockedError
	if _, err := host.Open(t.Context(), o); !errors.As(err, &locked) {
		t.Fatalf("second open: %v, want a *runner.LockedError", err)
	}
	svc := host.NewServices(o)
	sc, err = svc.Intake.Schedule(t.Context(), daily, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := at.Add(2 * time.Hour); sc.NextFire == nil || !sc.NextFire.Equal(want) {
		t.Errorf("NewServices' intake armed the schedule for %v, want %v", sc.NextFire, want)
	}
	if q := svc.MergeQueue(nil); q.Review != svc.Review || q.Verify != nil || q.Git != svc.Git {
		t.Errorf("services' merge queue: %+v", q)
	}
}
