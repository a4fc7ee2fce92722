package budget

import (
	"time"

	"github.com/boof-runner/boof-runner/backend/settings"
)

// DayStart is the start of t's calendar day in loc.
func DayStart(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, loc)
}

// MonthStart is the start of t's calendar month in loc.
func MonthStart(t time.Time, loc *time.Location) time.Time {
	y, m, _ := t.In(loc).Date()
	return time.Date(y, m, 1, 0, 0, 0, 0, loc)
}

// Period returns the range [from, to) of a daily or monthly budget at t;
// ok is false for the task period, which has none.
func Period(period string, t time.Time, loc *time.Location) (from, to time.Time, ok bool) {
	switch period {
	case settings.PeriodDaily:
		from = DayStart(t, loc)
		return from, from.AddDate(0, 0, 1), true
	case settings.PeriodMonthly:
		from = MonthStart(t, loc)
		return from, from.AddDate(0, 1, 0), true
	}
	return time.Time{}, time.Time{}, false
}

// backwardsSlack is how far the clock may step back (NTP slews, the
// store's millisecond stamps) before it counts as a jump worth a log line.
const backwardsSlack = time.Second

// clock is the budget clock: the injected clock, never before the latest
// time it gave (a clock that jumps backwards does not reopen a period whose
// spend was counted, nor stamp spend into the past).
type clock struct {
	now func() time.Time
	hi  time.Time
	// back is how far behind the real clock is now; 0 when it is not.
	back time.Duration
}

// read returns the budget time, and the size of a backwards jump first
// seen now (0 otherwise), which the caller logs once.
func (c *clock) read() (time.Time, time.Duration) {
	t := c.now()
	if !t.Before(c.hi) {
		c.hi, c.back = t, 0
		return t, 0
	}
	d := c.hi.Sub(t)
	jump := time.Duration(0)
	if d > backwardsSlack && c.back == 0 {
		jump = d
	}
	if d > backwardsSlack {
		c.back = d
	}
	return c.hi, jump
}

// raise moves the clock's floor up to t (the latest spend in the store).
func (c *clock) raise(t time.Time) {
	if t.After(c.hi) {
		c.hi = t
	}
}
