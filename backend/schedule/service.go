package schedule

import (
	"context"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Store is the part of the store schedules are kept in (*store.Store).
type Store interface {
	CreateSchedule(ctx context.Context, sc task.Schedule) (task.Schedule, error)
	UpdateSchedule(ctx context.Context, sc task.Schedule) (task.Schedule, error)
	GetSchedule(ctx context.Context, id string) (task.Schedule, error)
	DeleteSchedule(ctx context.Context, id string) error
}

// arm checks sc's expression and zone and sets its next fire after now
// (none while paused). It returns an error wrapping task.ErrInvalid.
func arm(sc task.Schedule, now time.Time) (task.Schedule, error) {
	spec, err := Parse(sc.Cron, sc.TZ)
	if err != nil {
		return sc, err
	}
	if sc.TZ == "" {
		sc.TZ = "UTC"
	}
	sc.NextFire = nil
	if !sc.Paused {
		n := spec.Next(now)
		if n.IsZero() {
			return sc, NeverFires(sc.Cron)
		}
		sc.NextFire = &n
	}
	return sc, nil
}

// NeverFires is the error of a cron expression with no fire time ahead
// (February 30th): it wraps task.ErrInvalid.
func NeverFires(cron string) error {
	return &task.InvalidError{Reason: "the cron expression " + cron + " never fires"}
}

// Create checks and stores a new schedule, armed for its first fire after
// now. It returns an error wrapping task.ErrInvalid for a bad expression,
// zone or template; nothing is stored then.
func Create(ctx context.Context, st Store, sc task.Schedule, now time.Time) (task.Schedule, error) {
	sc, err := arm(sc, now)
	if err != nil {
		return task.Schedule{}, err
	}
	return st.CreateSchedule(ctx, sc)
}

// Edit replaces a schedule's name, expression, zone and template (edit
// changes them on the schedule read by id) and re-arms it after now. It
// returns ErrNotFound for a missing schedule and an error wrapping
// task.ErrInvalid for bad input; nothing changes then.
func Edit(ctx context.Context, st Store, id string, now time.Time, edit func(*task.Schedule)) (task.Schedule, error) {
	sc, err := st.GetSchedule(ctx, id)
	if err != nil {
		return task.Schedule{}, err
	}
	edit(&sc)
	sc.ID = id
	if sc, err = arm(sc, now); err != nil {
		return task.Schedule{}, err
	}
	return st.UpdateSchedule(ctx, sc)
}

// SetPaused pauses a schedule (it fires no more, and holds no runner slot)
// or resumes it, armed for its next fire after now: fires due while it was
// paused are not caught up.
func SetPaused(ctx context.Context, st Store, id string, paused bool, now time.Time) (task.Schedule, error) {
	return Edit(ctx, st, id, now, func(sc *task.Schedule) { sc.Paused = paused })
}

// Delete deletes a schedule and its log; the tasks it queued are kept.
func Delete(ctx context.Context, st Store, id string) error { return st.DeleteSchedule(ctx, id) }
