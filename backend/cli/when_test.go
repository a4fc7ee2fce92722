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
