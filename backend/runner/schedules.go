package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/schedule"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// ScheduleStore is the part of the store the loop fires schedules with.
type ScheduleStore interface {
	DueSchedules(ctx context.Context, now time.Time, limit int) ([]task.Schedule, error)
	ListSchedules(ctx context.Context) ([]task.Schedule, error)
	RecordFire(ctx context.Context, f store.Fire) (task.Task, error)
	SetNextFire(ctx context.Context, id string, next *time.Time) error
}

// missedAfter is how late a fire found at start must be to count as
// missed while the app was closed (rather than just due).
const missedAfter = time.Minute

// maxMissedCount bounds the count of missed fires a note reports.
const maxMissedCount = 100000

// fireSchedules fires the schedules due at now: each due schedule queues
// a fresh task from its template, unless the task of its previous fire is
// still pending or running (the fire is skipped and logged). At the first
// pass after start, a schedule whose fires were missed while the app was
// closed runs once (runner.runMissedSchedules) or logs them. A clock that
// jumped backwards re-arms every schedule from now, so none waits for a
// time that the clock passed before. Schedules are not tasks: a sleeping
// one holds no runner slot.
func (r *Runner) fireSchedules(ctx context.Context, set settings.Settings) error {
	ss := r.o.Store
	now := r.o.Now()
	r.mu.Lock()
	first, last := !r.armed, r.lastNow
	r.armed, r.lastNow = true, now
	r.mu.Unlock()
	if first || now.Before(last.Add(-missedAfter)) {
		r.rearm(ctx, ss, now, last)
	}
	due, err := ss.DueSchedules(ctx, now, 0)
	if err != nil {
		return err
	}
	for _, sc := range due {
		if err := r.fire(ctx, ss, set, sc, now, first); err != nil {
			return err
		}
	}
	return nil
}

func (r *Runner) fire(ctx context.Context, ss ScheduleStore, set settings.Settings, sc task.Schedule, now time.Time, first bool) error {
	spec, err := schedule.Parse(sc.Cron, sc.TZ)
	if err != nil {
		// Stored before a parser change made it invalid: stop it, say why.
		r.log(ctx, "", 0, task.LevelError, fmt.Sprintf("Schedule %s (%s) cannot fire: %v; it is stopped until edited", sc.ID, sc.DisplayName(), err))
		return ss.SetNextFire(ctx, sc.ID, nil)
	}
	dueAt := *sc.NextFire
	next := spec.Next(now)
	f := store.Fire{ScheduleID: sc.ID, Due: dueAt, Outcome: task.FireQueued}
	if !next.IsZero() {
		f.Next = &next
	}
	if first && now.Sub(dueAt) > missedAfter {
		n := 1
		for t := spec.Next(dueAt); !t.IsZero() && !t.After(now) && n < maxMissedCount; t = spec.Next(t) {
			n++
		}
		if set.Runner.RunMissedSchedules {
			f.Outcome, f.Note = task.FireCaughtUp, fmt.Sprintf("%d fire(s) missed while the app was closed (first due %s): run once now", n, dueAt.Format(time.RFC3339))
		} else {
			f.Outcome, f.Note = task.FireMissed, fmt.Sprintf("%d fire(s) missed while the app was closed (first due %s): not run (runner.runMissedSchedules is off)", n, dueAt.Format(time.RFC3339))
		}
	}
	if f.Outcome != task.FireMissed && sc.LastTaskID != "" {
		if prev, err := r.o.Store.GetTask(ctx, sc.LastTaskID); err == nil && (prev.Status == task.StatusPending || prev.Status == task.StatusOngoing) {
			f.Outcome, f.Note = task.FireSkipped, fmt.Sprintf("the previous task %s is still %s", prev.ID, prev.Status)
		}
	}
	t, err := ss.RecordFire(ctx, f)
	if err != nil {
		return fmt.Errorf("fire schedule %s: %w", sc.ID, err)
	}
	switch f.Outcome {
	case task.FireQueued, task.FireCaughtUp:
		r.log(ctx, t.ID, 0, task.LevelInfo, fmt.Sprintf("Queued by schedule %s (%s) due %s%s", sc.ID, sc.DisplayName(), dueAt.Format(time.RFC3339), noteSuffix(f.Note)))
	default:
		r.log(ctx, "", 0, task.LevelWarn, fmt.Sprintf("Schedule %s (%s) %s its fire due %s: %s", sc.ID, sc.DisplayName(), f.Outcome, dueAt.Format(time.RFC3339), f.Note))
	}
	return nil
}

func noteSuffix(n string) string {
	if n == "" {
		return ""
	}
	return "; " + n
}

// rearm moves every armed schedule's next fire to its first fire after now
// when that comes sooner: the clock went back (from last to now, or while
// the app was closed, last zero), so a fire armed for a time the clock
// reaches much later is brought forward, never lost. In a clock that only
// goes forward, no schedule's next fire is ever later than that.
func (r *Runner) rearm(ctx context.Context, ss ScheduleStore, now, last time.Time) {
	all, err := ss.ListSchedules(ctx)
	if err != nil {
		r.o.Logger.Warn("runner: cannot re-arm schedules after the clock went back", "err", err)
		return
	}
	for _, sc := range all {
		if sc.Paused || sc.NextFire == nil {
			continue
		}
		spec, err := schedule.Parse(sc.Cron, sc.TZ)
		if err != nil {
			continue
		}
		if n := spec.Next(now); !n.IsZero() && n.Before(*sc.NextFire) {
			if err := ss.SetNextFire(ctx, sc.ID, &n); err == nil {
				r.log(ctx, "", 0, task.LevelWarn, fmt.Sprintf("The clock went back (now %s): schedule %s was armed for %s, re-armed for %s",
					now.Format(time.RFC3339), sc.ID, sc.NextFire.Format(time.RFC3339), n.Format(time.RFC3339)))
			}
		}
	}
}
