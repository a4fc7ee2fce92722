package cli_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAddAtSaysTheTimeStored: `add --at` answers with the time it stored,
// seconds (and their fraction) included when they were given, and shows
// it in show --json.
func TestAddAtSaysTheTimeStored(t *testing.T) {
	t.Setenv("TZ", "UTC")
	dir := filepath.Join(t.TempDir(), "data")
	useRepo(t, dir)
	for _, c := range []struct{ at, said, stored string }{
		{"2126-12-05 10:16:54", "queued; not started before 2126-12-05 10:16:54 UTC\n", "2126-12-05T10:16:54Z"},
		{"2126-12-05T10:16:54", "queued; not started before 2126-12-05 10:16:54 UTC\n", "2126-12-05T10:16:54Z"},
		{"2126-12-05T10:16:54.25Z", "queued; not started before 2126-12-05 10:16:54.25 UTC\n", "2126-12-05T10:16:54.25Z"},
		{"2126-12-05 10:16", "queued; not started before 2126-12-05 10:16 UTC\n", "2126-12-05T10:16:00Z"},
		{"2020-01-02 03:04:05", "the start time 2020-01-02 03:04:05 is in the past: the task runs now\n", "2020-01-02T03:04:05Z"},
		{"2020-01-02 03:04", "the start time 2020-01-02 03:04 is in the past: the task runs now\n", "2020-01-02T03:04:00Z"},
	} {
		r := runCLI(t, dir, "", "add", "--at", c.at, "later")
		if r.code != 0 || r.stderr != c.said {
			t.Fatalf("add --at %q: exit %d, said %q, want %q", c.at, r.code, r.stderr, c.said)
		}
		show := runCLI(t, dir, "", "show", strings.TrimSpace(r.stdout), "--json")
		if !strings.Contains(show.stdout, `"not_before": "`+c.stored+`"`) {
			t.Fatalf("add --at %q stored:\n%s", c.at, show.stdout)
		}
	}
}

// TestScheduleIntervalsAndZones: an @every interval under a minute or
// negative is refused with one sentence and stores nothing (a minute is
// taken); --tz without --at or --every is refused, not ignored.
func TestScheduleIntervalsAndZones(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	useRepo(t, dir)
	for _, every := range []string{"@every 0s", "@every 1s", "@every -5m"} {
		r := runCLI(t, dir, "", "add", "--every", every, "nightly")
		want := "boof-runner: The interval of \"" + every + "\" must be at least 1m (a schedule fires at most once a minute).\n"
		if r.code != 1 || r.stderr != want {
			t.Fatalf("add --every %q: exit %d, stderr %q, want %q", every, r.code, r.stderr, want)
		}
	}
	if n := len(schedulesJSON(t, dir)); n != 0 {
		t.Fatalf("a refused schedule was stored: %d", n)
	}
	if r := runCLI(t, dir, "", "add", "--every", "@every 1m", "often"); r.code != 0 {
		t.Fatalf("add --every '@every 1m': %+v", r)
	}
	for _, tz := range []string{"Europe/Berlin", "Mars/Olympus"} {
		r := runCLI(t, dir, "", "add", "--tz", tz, "now")
		if r.code != 2 || !strings.HasPrefix(r.stderr, "boof-runner add: --tz is the time zone of --at or --every: use it with one of them\n") {
			t.Fatalf("add --tz %s alone: exit %d, stderr %q", tz, r.code, r.stderr)
		}
	}
	if n := len(listJSON(t, dir)); n != 0 {
		t.Fatalf("add --tz alone queued %d task(s)", n)
	}
}
