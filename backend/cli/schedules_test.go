package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type listedSchedule struct {
	ID       string     `json:"id"`
	Name     string     `json:"name"`
	Cron     string     `json:"cron"`
	TZ       string     `json:"tz"`
	Paused   bool       `json:"paused"`
	NextFire *time.Time `json:"next_fire"`
	Template struct {
		Prompt string `json:"prompt"`
	} `json:"template"`
}

func schedulesJSON(t *testing.T, dir string) []listedSchedule {
	t.Helper()
	r := runCLI(t, dir, "", "schedules", "--json")
	if r.code != 0 {
		t.Fatalf("schedules: %d %s", r.code, r.stderr)
	}
	var out []listedSchedule
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("schedules --json: %v\n%s", err, r.stdout)
	}
	return out
}

func TestAddEveryMakesASchedule(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	useRepo(t, dir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--every", "61 2 * * *"}, `invalid cron expression "61 2 * * *"`},
		{[]string{"--every", "0 2 * *"}, "expected five fields"},
		{[]string{"--every", "0 2 * * *", "--tz", "Mars/Olympus"}, `unknown time zone "Mars/Olympus"`},
	} {
		r := runCLI(t, dir, "", append(append([]string{"add"}, c.args...), "nightly")...)
		if r.code != 1 || !strings.Contains(strings.ToLower(r.stderr), strings.ToLower(c.want)) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Fatalf("add %v: code %d stderr %q", c.args, r.code, r.stderr)
		}
	}
	if n := len(schedulesJSON(t, dir)); n != 0 {
		t.Fatalf("a refused schedule was stored: %d", n)
	}
	r := runCLI(t, dir, "", "add", "--every", "0 2 * * 1-5", "--tz", "Europe/Berlin", "--name", "deps", "bump the deps")
	if r.code != 0 || !idLine.MatchString(r.stdout) || !strings.Contains(r.stderr, "next fire") {
		t.Fatalf("add --every: %d %q %q", r.code, r.stdout, r.stderr)
	}
	id := strings.TrimSpace(r.stdout)
	scs := schedulesJSON(t, dir)
	if len(scs) != 1 || scs[0].ID != id || scs[0].Name != "deps" || scs[0].TZ != "Europe/Berlin" || scs[0].Template.Prompt != "bump the deps" ||
		scs[0].NextFire == nil || !scs[0].NextFire.After(time.Now()) {
		t.Fatalf("schedules %+v", scs)
	}
	berlin, _ := time.LoadLocation("Europe/Berlin")
	if nf := scs[0].NextFire.In(berlin); nf.Hour() != 2 || nf.Minute() != 0 || nf.Weekday() == time.Saturday || nf.Weekday() == time.Sunday {
		t.Fatalf("next fire %v", nf)
	}
	if n := len(listJSON(t, dir)); n != 0 {
		t.Fatalf("a schedule queued %d tasks before its fire", n)
	}
	if l := runCLI(t, dir, "", "schedules"); !strings.Contains(l.stdout, id) || !strings.Contains(l.stdout, "0 2 * * 1-5") || !strings.Contains(l.stdout, "deps") {
		t.Fatalf("schedules table:\n%s", l.stdout)
	}
	if p := runCLI(t, dir, "", "schedules", "pause", id); p.code != 0 || !schedulesJSON(t, dir)[0].Paused || schedulesJSON(t, dir)[0].NextFire != nil {
		t.Fatalf("pause: %+v", p)
	}
	if p := runCLI(t, dir, "", "schedules", "resume", id); p.code != 0 || schedulesJSON(t, dir)[0].NextFire == nil {
		t.Fatalf("resume: %+v", p)
	}
	if d := runCLI(t, dir, "", "schedules", "delete", "nope"); d.code != 1 || !strings.Contains(d.stderr, `Schedule "nope" does not exist`) {
		t.Fatalf("delete unknown: %+v", d)
	}
	if d := runCLI(t, dir, "", "schedules", "delete", id); d.code != 0 || len(schedulesJSON(t, dir)) != 0 {
		t.Fatalf("delete: %+v", d)
	}
}

func TestAddAtSetsNotBefore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	useRepo(t, dir)
	future := time.Now().Add(48 * time.Hour).UTC().Format("2006-01-02 15:04")
	r := runCLI(t, dir, "", "add", "--at", future, "--tz", "UTC", "later")
	if r.code != 0 || !strings.Contains(r.stderr, "not started before") {
		t.Fatalf("add --at future: %+v", r)
	}
	show := runCLI(t, dir, "", "show", strings.TrimSpace(r.stdout), "--json")
	if !strings.Contains(show.stdout, `"not_before": "`+strings.Replace(future, " ", "T", 1)+`:00Z"`) {
		t.Fatalf("show:\n%s", show.stdout)
	}
	past := runCLI(t, dir, "", "add", "--at", "2020-01-02 03:04", "earlier")
	if past.code != 0 || !strings.Contains(past.stderr, "is in the past: the task runs now") {
		t.Fatalf("add --at past: %+v", past)
	}
	bad := runCLI(t, dir, "", "add", "--at", "tomorrow-ish", "never")
	if bad.code != 1 || !strings.Contains(strings.ToLower(bad.stderr), `--at "tomorrow-ish" is not a time`) {
		t.Fatalf("add --at garbage: %+v", bad)
	}
	both := runCLI(t, dir, "", "add", "--at", future, "--every", "@daily", "x")
	if both.code != 2 {
		t.Fatalf("--at with --every: %+v", both)
	}
	if n := len(listJSON(t, dir)); n != 2 {
		t.Fatalf("%d tasks (want the two valid ones)", n)
	}
}

func TestLimitsListsAndResumes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if r := runCLI(t, dir, "", "limits"); r.code != 0 || !strings.Contains(r.stdout, "no tool is paused") ||
		!strings.Contains(r.stdout, "on a usage limit, tasks wait for the reset (settings limits.onLimit)") {
		t.Fatalf("limits: %+v", r)
	}
	if r := runCLI(t, dir, "", "settings", "set", "limits.onLimit", "switch"); r.code != 0 {
		t.Fatalf("settings set: %+v", r)
	}
	if r := runCLI(t, dir, "", "limits"); r.code != 0 || !strings.Contains(r.stdout, "tasks switch to the next installed tool with a handoff") ||
		!strings.Contains(r.stdout, "order, settings limits.switchOrder: claude-code, codex") {
		t.Fatalf("limits after switch: %+v", r)
	}
	if r := runCLI(t, dir, "", "limits", "resume", "claude-code"); r.code != 1 || !strings.Contains(r.stderr, "The tool claude-code is not paused") {
		t.Fatalf("limits resume: %+v", r)
	}
}

func TestAddOnLimit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	useRepo(t, dir)
	r := runCLI(t, dir, "", "add", "--on-limit", "switch", "x")
	if r.code != 0 {
		t.Fatalf("switch: %+v", r)
	}
	if s := runCLI(t, dir, "", "show", "--json", strings.TrimSpace(r.stdout)); s.code != 0 || !strings.Contains(s.stdout, `"on_limit": "switch"`) && !strings.Contains(s.stdout, `"on_limit":"switch"`) {
		t.Fatalf("show: %+v", s)
	}
	if r := runCLI(t, dir, "", "add", "--on-limit", "later", "x"); r.code != 1 || !strings.Contains(r.stderr, "wait or switch") {
		t.Fatalf("bad value: %+v", r)
	}
	if r := runCLI(t, dir, "", "add", "--on-limit", "wait", "x"); r.code != 0 {
		t.Fatalf("wait: %+v", r)
	}
	if n := len(listJSON(t, dir)); n != 2 {
		t.Fatalf("%d tasks", n)
	}
}
