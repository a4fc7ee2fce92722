// Package schedule reads the cron expressions of recurring tasks and
// computes their fire times (github.com/robfig/cron/v3), and keeps the
// schedules of a data root: create, edit, pause, resume, delete. The queue
// loop (backend/runner) fires them.
package schedule

import (
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/boof-runner/boof-runner/backend/task"
)

// parser reads standard five-field expressions and descriptors (@daily,
// @every 1h); a time zone is given apart, never inside the expression.
var parser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// Spec is a parsed cron expression in its time zone.
type Spec struct {
	sched cron.Schedule
	loc   *time.Location
}

// MinInterval is the shortest interval of an @every expression: a
// schedule fires at most once a minute, as five-field cron does.
const MinInterval = time.Minute

// IntervalError is an @every expression whose interval is shorter than
// MinInterval: zero, negative or under a minute (the cron library would
// fire it every second). errors.Is matches task.ErrInvalid.
type IntervalError struct {
	// Expr is the expression as given ("@every 0s").
	Expr string
	// Interval is its interval.
	Interval time.Duration
}

// Error returns "schedule interval <d> of <expr> is under 1m".
func (e *IntervalError) Error() string {
	return fmt.Sprintf("schedule interval %s of %q is under %s", e.Interval, e.Expr, shortDuration(MinInterval))
}

// Unwrap lets errors.Is match task.ErrInvalid.
func (e *IntervalError) Unwrap() error { return task.ErrInvalid }

// Parse reads a cron expression and an IANA time zone ("" is UTC). It
// returns an error wrapping task.ErrInvalid that says what is wrong: an
// empty or malformed expression, a CRON_TZ inside it, an unknown zone, an
// *IntervalError for an @every interval under MinInterval.
func Parse(expr, tz string) (Spec, error) {
	expr = strings.TrimSpace(expr)
	if expr == "" {
		return Spec{}, &task.InvalidError{Reason: "a schedule needs a cron expression (for example \"0 2 * * 1-5\")"}
	}
	if strings.HasPrefix(expr, "CRON_TZ=") || strings.HasPrefix(expr, "TZ=") {
		return Spec{}, &task.InvalidError{Reason: "give the time zone with --tz, not inside the cron expression"}
	}
	loc, err := Location(tz)
	if err != nil {
		return Spec{}, err
	}
	if f := strings.Fields(expr); len(f) == 2 && f[0] == "@every" {
		if every, err := time.ParseDuration(f[1]); err == nil && every < MinInterval {
			return Spec{}, &IntervalError{Expr: expr, Interval: every}
		}
	}
	s, err := parser.Parse(expr)
	if err != nil {
		return Spec{}, &task.InvalidError{Reason: fmt.Sprintf("invalid cron expression %q: %v (expected five fields: minute hour day-of-month month day-of-week, or @daily, @every 1h)", expr, err)}
	}
	return Spec{sched: s, loc: loc}, nil
}

// Location loads an IANA time zone name; "" and "UTC" are UTC. It returns
// an error wrapping task.ErrInvalid for an unknown zone.
func Location(tz string) (*time.Location, error) {
	tz = strings.TrimSpace(tz)
	if tz == "" || tz == "UTC" {
		return time.UTC, nil
	}
	if strings.EqualFold(tz, "local") {
		return nil, &task.InvalidError{Reason: "name the time zone (for example Europe/Berlin), not Local"}
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return nil, &task.InvalidError{Reason: fmt.Sprintf("unknown time zone %q (use an IANA name such as Europe/Berlin or UTC)", tz)}
	}
	return loc, nil
}

// Next returns the first fire strictly after t, in UTC; the zero time when
// the expression never fires again.
func (s Spec) Next(t time.Time) time.Time {
	n := s.sched.Next(t.In(s.loc))
	if n.IsZero() {
		return n
	}
	return n.UTC()
}
