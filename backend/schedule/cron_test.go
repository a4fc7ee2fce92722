package schedule

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

func TestParseRefusesBadInputClearly(t *testing.T) {
	cases := []struct{ expr, tz, want string }{
		{"", "", "needs a cron expression"},
		{"61 * * * *", "", `invalid cron expression "61 * * * *"`},
		{"0 2 * *", "", "expected five fields"},
		{"every night", "", "invalid cron expression"},
		{"CRON_TZ=Europe/Berlin 0 2 * * *", "", "with --tz"},
		{"0 2 * * *", "Mars/Olympus", `unknown time zone "Mars/Olympus"`},
		{"0 2 * * *", "Local", "name the time zone"},
	}
	for _, c := range cases {
		_, err := Parse(c.expr, c.tz)
		if !errors.Is(err, task.ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q, %q) = %v, want an invalid-input error saying %q", c.expr, c.tz, err, c.want)
		}
	}
}

func TestNextFollowsTheZone(t *testing.T) {
	s, err := Parse("0 2 * * 1-5", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	// Friday 2026-12-04 03:00 Berlin: the next weekday 02:00 is Monday.
	from := time.Date(2026, 12, 4, 2, 0, 0, 0, time.UTC)
	if got, want := s.Next(from), time.Date(2026, 12, 7, 1, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Fatalf("next %v, want %v", got, want)
	}
	// Summer time: 02:00 Berlin is 00:00 UTC.
	if got, want := s.Next(time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)), time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Fatalf("summer next %v, want %v", got, want)
	}
	d, err := Parse("@every 90m", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Next(from); !got.Equal(from.Add(90 * time.Minute)) {
		t.Fatalf("@every: %v", got)
	}
}

// An @every interval under a minute (zero, negative, seconds) is refused
// with an *IntervalError (the cron library would fire it every second);
// a minute and more is taken.
func TestParseRefusesIntervalsUnderAMinute(t *testing.T) {
	for _, expr := range []string{"@every 0s", "@every 1s", "@every 59s", "@every 59.9s", "@every -5m", "@every -1h", " @every   30s "} {
		_, err := Parse(expr, "")
		var ie *IntervalError
		if !errors.As(err, &ie) || !errors.Is(err, task.ErrInvalid) {
			t.Errorf("Parse(%q) = %v, want an *IntervalError", expr, err)
		}
	}
	from := time.Date(2026, 12, 4, 2, 0, 0, 0, time.UTC)
	for expr, want := range map[string]time.Duration{"@every 1m": time.Minute, "@every 90s": 90 * time.Second, "@every 2h": 2 * time.Hour} {
		s, err := Parse(expr, "")
		if err != nil {
			t.Fatalf("Parse(%q): %v", expr, err)
		}
		if got := s.Next(from); !got.Equal(from.Add(want)) {
			t.Errorf("%s: next %v, want %v", expr, got, from.Add(want))
		}
	}
}
