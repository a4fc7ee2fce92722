package shell

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/settings"
)

// statuses returns the runner:status payloads recorded so far.
func statuses(rec *app.RecordingEmitter) []app.RunnerStatus {
	var out []app.RunnerStatus
	for _, p := range rec.PayloadsOf(app.EventRunnerStatus) {
		out = append(out, p[0].(app.RunnerStatus))
	}
	return out
}

// TestStatusWatch runs the watcher over a real store and settings file, with
// the queue held by another process (its running tasks are the store's
// ongoing ones): it tells the UI at once, on each step change it is poked
// about, when a task starts running and when the queue is paused.
func TestStatusWatch(t *testing.T) {
	st := newTestStore(t)
	l := lifecycle{t, st}
	file := settings.NewFile(filepath.Join(t.TempDir(), "settings.json"), host.Catalog())
	rec := &app.RecordingEmitter{}
	live := app.NewLiveOutput(rec, secrets.Scrub, time.Now, 0)
	defer live.Close()
	rc := app.LockedRunner(st, "held elsewhere", nil)
	svc := app.NewRunService(st, rc, file, live, rec, context.Background)
	run := runControl{svc: svc, queue: rc, settings: file, ctx: context.Background}

	w := newStatusWatch()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); w.run(ctx, 20*time.Millisecond, run, svc, rec) }()
	defer func() { cancel(); <-done }()

	waitFor(t, "the first status", func() bool { return len(statuses(rec)) == 1 })
	if s := statuses(rec)[0]; !s.Enabled || s.LockHeld || s.LockMessage != "held elsewhere" || len(s.Running) != 0 {
		t.Fatalf("first status %+v", s)
	}
	// A step change with the same tasks running is still news (the role changed).
	w.poke()
	waitFor(t, "the poked status", func() bool { return len(statuses(rec)) == 2 })

	id := l.create("Refactor")
	l.claim(id)
	waitFor(t, "the running task's status", func() bool {
		ss := statuses(rec)
		last := ss[len(ss)-1]
		return len(last.Running) == 1 && last.Running[0].TaskID == id && last.Running[0].Title == "Refactor"
	})
	if err := run.SetEnabled(false); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the paused status", func() bool {
		return slices.ContainsFunc(statuses(rec), func(s app.RunnerStatus) bool { return !s.Enabled })
	})
	if run.Enabled() {
		t.Fatal("pause not saved")
	}
}
