package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

const scheduleColumns = `id, name, cron, tz, template, paused, next_fire, last_fire, last_task_id, created_at, updated_at`

// CreateSchedule stores a new schedule (its cron expression and time zone
// already checked by the caller, NextFire computed) and returns it with its
// id. It returns an error wrapping task.ErrInvalid for a bad template.
func (s *Store) CreateSchedule(ctx context.Context, sc task.Schedule) (task.Schedule, error) {
	tpl, err := scheduleTemplate(sc)
	if err != nil {
		return task.Schedule{}, err
	}
	now := s.now()
	id, err := task.NewID(now, rand.Reader)
	if err != nil {
		return task.Schedule{}, err
	}
	ms := now.UnixMilli()
	var out task.Schedule
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO schedules (id, name, cron, tz, template, paused, next_fire, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, sc.Name, sc.Cron, sc.TZ, tpl, sc.Paused, timeMs(sc.NextFire), ms, ms); err != nil {
			return fmt.Errorf("create schedule: %w", err)
		}
		out, err = getScheduleTx(ctx, tx, id)
		return err
	})
	return out, err
}

// scheduleTemplate checks a schedule's name and template and returns the
// template as JSON.
func scheduleTemplate(sc task.Schedule) (string, error) {
	if len(sc.Name) > task.MaxTitle {
		return "", invalidf("schedule name is longer than %d bytes", task.MaxTitle)
	}
	if p := task.LineProblem(sc.Name); p != "" {
		return "", invalidf("schedule name %s", p)
	}
	if sc.Cron == "" {
		return "", invalidf("schedule has no cron expression")
	}
	n := sc.Template
	n.Draft, n.NotBefore = false, nil
	n, err := n.Normalize()
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(n)
	if err != nil {
		return "", fmt.Errorf("schedule template: %w", err)
	}
	return string(b), nil
}

// UpdateSchedule replaces a schedule's name, cron expression, time zone,
// template, paused state and next fire (the caller re-arms it), keeping its
// id and its log. It returns ErrNotFound for a missing schedule and an error
// wrapping task.ErrInvalid for a bad template.
func (s *Store) UpdateSchedule(ctx context.Context, sc task.Schedule) (task.Schedule, error) {
	tpl, err := scheduleTemplate(sc)
	if err != nil {
		return task.Schedule{}, err
	}
	var out task.Schedule
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE schedules SET name = ?, cron = ?, tz = ?, template = ?, paused = ?, next_fire = ?, updated_at = ?
			WHERE id = ?`, sc.Name, sc.Cron, sc.TZ, tpl, sc.Paused, timeMs(sc.NextFire), s.nowMs(), sc.ID)
		if err != nil {
			return fmt.Errorf("update schedule %s: %w", sc.ID, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return notFound(WhatSchedule, sc.ID)
		}
		out, err = getScheduleTx(ctx, tx, sc.ID)
		return err
	})
	return out, err
}

// DeleteSchedule deletes a schedule and its log; the tasks it queued are
// kept. It returns ErrNotFound for a missing schedule.
func (s *Store) DeleteSchedule(ctx context.Context, id string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM schedules WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("delete schedule %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return notFound(WhatSchedule, id)
	}
	return nil
}

// GetSchedule returns a schedule, or an error wrapping ErrNotFound.
func (s *Store) GetSchedule(ctx context.Context, id string) (task.Schedule, error) {
	sc, err := scanSchedule(s.db.QueryRowContext(ctx, `SELECT `+scheduleColumns+` FROM schedules WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return task.Schedule{}, notFound(WhatSchedule, id)
	}
	if err != nil {
		return task.Schedule{}, fmt.Errorf("get schedule %s: %w", id, err)
	}
	return sc, nil
}

// ListSchedules returns every schedule, the next to fire first (paused
// ones last).
func (s *Store) ListSchedules(ctx context.Context) ([]task.Schedule, error) {
	return s.querySchedules(ctx, `SELECT `+scheduleColumns+` FROM schedules ORDER BY paused, next_fire IS NULL, next_fire, created_at, id`)
}

// DueSchedules returns the schedules not paused whose next fire is at or
// before now, the earliest first, at most limit (0: 1000).
func (s *Store) DueSchedules(ctx context.Context, now time.Time, limit int) ([]task.Schedule, error) {
	if limit <= 0 {
		limit = 1000
	}
	return s.querySchedules(ctx, `SELECT `+scheduleColumns+` FROM schedules WHERE paused = 0 AND next_fire <= ?
		ORDER BY next_fire, id LIMIT ?`, now.UnixMilli(), limit)
}

// NextScheduleFire returns the earliest next fire of the schedules not
// paused, false when there is none.
func (s *Store) NextScheduleFire(ctx context.Context) (time.Time, bool, error) {
	var ms sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT MIN(next_fire) FROM schedules WHERE paused = 0`).Scan(&ms); err != nil {
		return time.Time{}, false, fmt.Errorf("next schedule fire: %w", err)
	}
	if !ms.Valid {
		return time.Time{}, false, nil
	}
	return time.UnixMilli(ms.Int64).UTC(), true, nil
}

// Fire is one fire of a schedule as the scheduler records it.
type Fire struct {
	ScheduleID string
	// Due is the fire time; Next the fire after it (nil: none).
	Due  time.Time
	Next *time.Time
	// Outcome is task.FireQueued, FireCaughtUp, FireSkipped or FireMissed;
	// the first two queue a task from the template.
	Outcome string
	Note    string
}

// RecordFire records a fire of a schedule in one transaction: for a
// queued or caught-up fire a fresh task from the template (linked to the
// schedule, with a scheduled event), the schedule's last fire, last task
// and next fire, and an entry of its log. It returns the queued task (zero
// for a skip), ErrNotFound for a missing schedule and a *StatusError when
// the schedule was paused meanwhile (nothing is queued then).
func (s *Store) RecordFire(ctx context.Context, f Fire) (task.Task, error) {
	var out task.Task
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		sc, err := getScheduleTx(ctx, tx, f.ScheduleID)
		if err != nil {
			return err
		}
		if sc.Paused {
			return &StatusError{Op: "fire", TaskID: sc.ID, Status: "paused", Allowed: []task.Status{"active"}}
		}
		at := s.nowMs()
		lastTask := sc.LastTaskID
		if f.Outcome == task.FireQueued || f.Outcome == task.FireCaughtUp {
			n := sc.Template
			n.Draft, n.NotBefore = false, nil
			if n, err = n.Normalize(); err != nil {
				return err
			}
			out, err = s.createTaskTx(ctx, tx, n, sc.ID, task.ScheduleFired{Schedule: sc.ID, Name: sc.Name, Due: f.Due,
				CaughtUp: f.Outcome == task.FireCaughtUp})
			if err != nil {
				return err
			}
			lastTask = out.ID
		}
		if _, err := tx.ExecContext(ctx, `UPDATE schedules SET last_fire = ?, last_task_id = ?, next_fire = ?, updated_at = ? WHERE id = ?`,
			f.Due.UnixMilli(), lastTask, timeMs(f.Next), at, sc.ID); err != nil {
			return fmt.Errorf("record fire of %s: %w", sc.ID, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schedule_runs (schedule_id, at, due, outcome, task_id, note) VALUES (?, ?, ?, ?, ?, ?)`,
			sc.ID, at, f.Due.UnixMilli(), f.Outcome, out.ID, f.Note); err != nil {
			return fmt.Errorf("record fire of %s: %w", sc.ID, err)
		}
		return nil
	})
	return out, err
}

// SetNextFire moves a schedule's next fire (a correction after the clock
// jumped, or re-arming) without a log entry. It returns ErrNotFound for a
// missing schedule.
func (s *Store) SetNextFire(ctx context.Context, id string, next *time.Time) error {
	res, err := s.db.ExecContext(ctx, `UPDATE schedules SET next_fire = ?, updated_at = ? WHERE id = ?`, timeMs(next), s.nowMs(), id)
	if err != nil {
		return fmt.Errorf("set next fire of %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return notFound(WhatSchedule, id)
	}
	return nil
}

// ScheduleRuns returns the newest entries of a schedule's log, newest
// first, at most limit (0: 50).
func (s *Store) ScheduleRuns(ctx context.Context, id string, limit int) ([]task.ScheduleRun, error) {
	if limit <= 0 {
		limit = 50
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, schedule_id, at, due, outcome, task_id, note FROM schedule_runs
		WHERE schedule_id = ? ORDER BY id DESC LIMIT ?`, id, limit)
	if err != nil {
		return nil, fmt.Errorf("schedule log of %s: %w", id, err)
	}
	defer rows.Close()
	out := []task.ScheduleRun{}
	for rows.Next() {
		var r task.ScheduleRun
		var at, due int64
		if err := rows.Scan(&r.ID, &r.ScheduleID, &at, &due, &r.Outcome, &r.TaskID, &r.Note); err != nil {
			return nil, fmt.Errorf("schedule log of %s: %w", id, err)
		}
		r.At, r.Due = time.UnixMilli(at).UTC(), time.UnixMilli(due).UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}

func (s *Store) querySchedules(ctx context.Context, q string, args ...any) ([]task.Schedule, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list schedules: %w", err)
	}
	defer rows.Close()
	out := []task.Schedule{}
	for rows.Next() {
		sc, err := scanSchedule(rows)
		if err != nil {
			return nil, fmt.Errorf("list schedules: %w", err)
		}
		out = append(out, sc)
	}
	return out, rows.Err()
}

func getScheduleTx(ctx context.Context, tx *sql.Tx, id string) (task.Schedule, error) {
	sc, err := scanSchedule(tx.QueryRowContext(ctx, `SELECT `+scheduleColumns+` FROM schedules WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return task.Schedule{}, notFound(WhatSchedule, id)
	}
	if err != nil {
		return task.Schedule{}, fmt.Errorf("get schedule %s: %w", id, err)
	}
	return sc, nil
}

func scanSchedule(r scanner) (task.Schedule, error) {
	var sc task.Schedule
	var tpl string
	var paused int
	var next, last sql.NullInt64
	var created, updated int64
	if err := r.Scan(&sc.ID, &sc.Name, &sc.Cron, &sc.TZ, &tpl, &paused, &next, &last, &sc.LastTaskID, &created, &updated); err != nil {
		return sc, err
	}
	if err := json.Unmarshal([]byte(tpl), &sc.Template); err != nil {
		return sc, fmt.Errorf("schedule %s template: %w", sc.ID, err)
	}
	if sc.Template.Labels == nil {
		sc.Template.Labels = []string{}
	}
	if sc.Template.Tools == nil {
		sc.Template.Tools = task.Tools{}
	}
	sc.Paused = paused != 0
	sc.NextFire, sc.LastFire = msPtr(next), msPtr(last)
	sc.CreatedAt, sc.UpdatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	return sc, nil
}
