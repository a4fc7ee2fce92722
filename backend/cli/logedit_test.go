package cli_test

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// `log --follow` started before the runner prints the run as it happens and
// returns once the task is done; `log --events` prints the stored events as
// JSON lines.
func TestLogFollowAndEvents(t *testing.T) {
	data, _ := mockRoot(t)
	id := strings.TrimSpace(mustCLI(t, data, "", "add", "Follow me."))
	follow := exec.Command(binary, "log", id, "--follow", "--data-dir", data)
	var out, errb bytes.Buffer
	follow.Stdout, follow.Stderr = &out, &errb
	if err := follow.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- follow.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("log --follow of a pending task returned at once: %v %s", err, errb.String())
	case <-time.After(500 * time.Millisecond):
	}
	mustCLI(t, data, "", "runner", "--until-idle")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("log --follow: %v %s", err, errb.String())
		}
	case <-time.After(30 * time.Second):
		follow.Process.Kill()
		t.Fatal("log --follow did not return after the task was done")
	}
	full := mustCLI(t, data, "", "log", id)
	if !strings.Contains(out.String(), "Task done") || out.String() != full {
		t.Fatalf("followed output differs from the log:\n%s\n---\n%s", out.String(), full)
	}
	for _, l := range strings.Split(strings.TrimSuffix(full, "\n"), "\n") {
		if strings.HasPrefix(l, "  ") {
			continue // a continuation line
		}
		if len(l) < 30 || l[4] != '-' || l[23] != 'Z' {
			t.Fatalf("log line %q is not \"<time> <level> <text>\"", l)
		}
	}
	var kinds []string
	for _, l := range strings.Split(strings.TrimSpace(mustCLI(t, data, "", "log", id, "--events")), "\n") {
		var e struct {
			ID   int64           `json:"id"`
			Kind string          `json:"kind"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil || e.ID == 0 {
			t.Fatalf("event line %q: %v", l, err)
		}
		kinds = append(kinds, e.Kind)
	}
	got := strings.Join(kinds, ",")
	for _, want := range []string{"created", "claimed", "step_started", "step_finished", "verdict", "status_changed"} {
		if !strings.Contains(got, want) {
			t.Fatalf("events %s lack %s", got, want)
		}
	}
	if strings.Contains(got, "tool_call") || strings.Contains(got, "text") {
		t.Fatalf("live-only kinds in the stored events: %s", got)
	}
	if r := runCLI(t, data, "", "log", "nope"); r.code != 1 || r.stderr != "boof-runner: Task \"nope\" does not exist.\n" {
		t.Fatalf("log of a missing task: %d %q", r.code, r.stderr)
	}
}

func TestEditChangesAllOrNothing(t *testing.T) {
	data, _ := mockRoot(t)
	id := strings.TrimSpace(mustCLI(t, data, "", "add", "--label", "old", "Edit me."))
	mustCLI(t, data, "", "edit", id, "--priority", "5", "--title", "New title", "--label", "a", "--label", "b", "--skip")
	got := showJSON(t, data, id)
	if got.Prio != 5 || got.Title != "New title" || strings.Join(got.Labels, ",") != "a,b" || !got.Skip {
		t.Fatalf("after edit: %+v", got)
	}
	mustCLI(t, data, "", "edit", id, "--no-skip", "--label", "")
	if got = showJSON(t, data, id); got.Skip || len(got.Labels) != 0 || got.Title != "New title" {
		t.Fatalf("after --no-skip --label '': %+v", got)
	}
	for _, bad := range [][]string{{"edit", id}, {"edit", id, "--skip", "--no-skip"}, {"edit"}} {
		if r := runCLI(t, data, "", bad...); r.code != 2 {
			t.Errorf("%v: exit %d %q", bad, r.code, r.stderr)
		}
	}
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"--priority", "2000000"}, "boof-runner: Priority 2000000 is outside ±1000000.\n"},
		{[]string{"--priority", "two"}, "boof-runner: Priority must be an integer, got \"two\".\n"},
		{[]string{"--label", "a,b"}, "boof-runner: Label \"a,b\" contains a comma.\n"},
		{[]string{"--title", "two\nlines", "--priority", "9"}, "boof-runner: Title contains the control character U+000A; it must be one line of plain text.\n"},
	}
	for _, c := range cases {
		r := runCLI(t, data, "", append([]string{"edit", id}, c.args...)...)
		if r.code != 1 || r.stderr != c.msg {
			t.Errorf("edit %v: %d %q", c.args, r.code, r.stderr)
		}
	}
	mustCLI(t, data, "", "runner", "--until-idle")
	r := runCLI(t, data, "", "edit", id, "--priority", "9", "--title", "Too late")
	if r.code != 1 || r.stderr != "boof-runner: This task is done: only draft or pending tasks can be edited.\n" {
		t.Fatalf("edit a done task: %d %q", r.code, r.stderr)
	}
	if got = showJSON(t, data, id); got.Prio != 5 || got.Title != "New title" {
		t.Fatalf("a refused edit changed the task: %+v", got)
	}
	mustCLI(t, data, "", "edit", id, "--priority", "9")
	if got = showJSON(t, data, id); got.Prio != 9 {
		t.Fatalf("priority of a done task: %+v", got)
	}
}
