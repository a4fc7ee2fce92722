package shell

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/settings"
)

// runControl is the RunControl of the tray and the status watcher: the
// bound RunService for what the UI can also do (pause, stop), this
// process's hold on the queue for what runs, and the settings file for
// whether the queue is paused.
type runControl struct {
	svc      *app.RunService
	pauses   app.PauseReader
	queue    app.RunnerControl
	settings *settings.File
	ctx      func() context.Context
}

var _ RunControl = runControl{}

// Enabled reports settings.runner.enabled; a bad file gives the defaults,
// as the runner uses.
func (r runControl) Enabled() bool {
	s, _ := r.settings.Load()
	return s.Runner.Enabled
}

// SetEnabled pauses or resumes the queue through the bound service.
func (r runControl) SetEnabled(on bool) error {
	_, err := r.svc.SetEnabled(on)
	return err
}

// Running returns the ids of the tasks running now.
func (r runControl) Running() []string { return r.queue.Running(r.ctx()) }

// StopTask asks the runner to stop the task (the UI's Stop).
func (r runControl) StopTask(id string) error { return r.svc.Stop(id) }

// Paused returns the tools paused by a usage limit now; a store error
// gives none.
func (r runControl) Paused() []app.PausedTool {
	ps, _ := app.PausedTools(r.ctx(), r.pauses, time.Now(), time.Local)
	return ps
}

// ResumeTool ends a tool's pause now through the bound service (the
// window's Resume): the queue wakes and the window hears runner:status.
func (r runControl) ResumeTool(tool string) error {
	_, err := r.svc.ResumeTool(tool)
	return err
}

// statusWatch emits runner:status whenever the set of running tasks or the
// paused state changes, and on every step change the pipeline reports
// (poke), so the window never keeps showing a task or a step that ended.
// It exists before the pipeline hooks that poke it; run starts it once the
// service it reads exists.
type statusWatch struct {
	poked chan struct{}
}

func newStatusWatch() *statusWatch { return &statusWatch{poked: make(chan struct{}, 1)} }

// poke says a step started or ended; it never blocks.
func (w *statusWatch) poke() {
	select {
	case w.poked <- struct{}{}:
	default:
	}
}

// statusSource computes the runner status; *app.RunService has it.
type statusSource interface {
	Status() (app.RunnerStatus, error)
}

// run checks every interval (and on each poke) until ctx ends.
func (w *statusWatch) run(ctx context.Context, interval time.Duration, rc RunControl, src statusSource, emit app.Emitter) {
	last := ""
	t := time.NewTicker(interval)
	defer t.Stop()
	poked := false
	for {
		key := fmt.Sprint(rc.Enabled(), slices.Sorted(slices.Values(rc.Running())))
		if key != last || poked {
			last = key
			if st, err := src.Status(); err == nil {
				emit.Emit(app.EventRunnerStatus, st)
			}
		}
		poked = false
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.poked:
			poked = true
		}
	}
}
