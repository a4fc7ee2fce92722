package cli_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// shownWhy is what TestListAndShowSayWhyATaskWaits and
// TestShowGivesUsagePerRole read of list
// --json and show --json.
type shownWhy struct {
	ID         string `json:"id"`
	Status     string `json:"status"`
	WaitingFor *struct {
		Tool   string    `json:"tool"`
		Until  time.Time `json:"until"`
		Reason string    `json:"reason"`
	} `json:"waiting_for"`
	UsageByRole []struct {
		Role      string  `json:"role"`
		Steps     int     `json:"steps"`
		TokensIn  int64   `json:"tokens_in"`
		TokensOut int64   `json:"tokens_out"`
		CacheRead int64   `json:"cache_read"`
		CostUSD   float64 `json:"cost_usd"`
	} `json:"usage_by_role"`
}

// TestListAndShowSayWhyATaskWaits: a pending task whose next step
// needs a tool paused by a usage limit says so in list and show, in the
// runner badge's words, and in --json as waiting_for; a task whose tool is
// not paused is plainly pending; one waiting for its start time says
// until when.
func TestListAndShowSayWhyATaskWaits(t *testing.T) {
	t.Setenv("TZ", "UTC")
	data, _ := mockRoot(t) // every role runs with the mock
	waiting := addTask(t, data, "first")
	later := addTask(t, data, "--at", "2126-12-05 10:16:54", "later")
	s := storeAt(t, data)
	ctx := context.Background()
	own, err := s.CreateTask(ctx, task.NewTask{Prompt: "own codex planner", Tools: task.Tools{task.RolePlanner: {Tool: "codex"}}})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	pause, err := s.PauseTool(ctx, task.ToolPause{Tool: "mock", Until: now.Add(2 * time.Hour), PausedAt: now, Reason: "usage limit"})
	if err != nil {
		t.Fatal(err)
	}
	badge := pause.Describe(now, time.UTC) // "mock paused until 14:05 (usage limit)"

	list := mustCLI(t, data, "", "list")
	lines := map[string]string{}
	for _, l := range strings.Split(list, "\n") {
		if id, _, ok := strings.Cut(l, " "); ok {
			lines[id] = l
		}
	}
	if !strings.Contains(lines[waiting], "  pending, waiting for "+badge+"  ") {
		t.Fatalf("list does not say why %s waits (%s):\n%s", waiting, badge, list)
	}
	if !strings.Contains(lines[later], "  pending, not before 2126-12-05 10:16:54, waiting for "+badge+"  ") {
		t.Fatalf("list does not say why %s waits:\n%s", later, list)
	}
	if l := lines[own.ID]; !strings.Contains(l, "  pending  ") || strings.Contains(l, "waiting") {
		t.Fatalf("a task whose tool is not paused: %q", l)
	}
	var listed []shownWhy
	if err := json.Unmarshal([]byte(mustCLI(t, data, "", "list", "--json")), &listed); err != nil {
		t.Fatal(err)
	}
	for _, l := range listed {
		w := l.WaitingFor
		switch l.ID {
		case waiting, later:
			if w == nil || w.Tool != "mock" || !w.Until.Equal(pause.Until) || w.Reason != "usage limit" || l.Status != "pending" {
				t.Fatalf("list --json of %s: %+v %+v", l.ID, l, w)
			}
		case own.ID:
			if w != nil {
				t.Fatalf("list --json of the codex task: waiting for %+v", w)
			}
		}
	}
	if out := mustCLI(t, data, "", "show", waiting); !strings.Contains(out, "status:    pending, waiting for "+badge+"\n") {
		t.Fatalf("show:\n%s", out)
	}
}

// TestShowGivesUsagePerRole: show gives the usage per role besides the
// totals (as the window's task view does), in text and as usage_by_role.
func TestShowGivesUsagePerRole(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	id := addTask(t, data, "first")
	other := addTask(t, data, "no steps yet")
	s := storeAt(t, data)
	ctx := context.Background()
	// Two planner steps and a developer step.
	for _, e := range []struct {
		role  task.Role
		usage task.Usage
	}{
		{task.RolePlanner, task.Usage{TokensIn: 100, TokensOut: 20, CostUSD: 0.01}},
		{task.RolePlanner, task.Usage{TokensIn: 50, TokensOut: 5, CacheRead: 7, CostUSD: 0.005}},
		{task.RoleDeveloper, task.Usage{TokensIn: 1000, TokensOut: 300, CostUSD: 0.2}},
	} {
		ex, err := s.StartExecution(ctx, task.Execution{TaskID: id, Iteration: 1, Role: e.role, Attempt: 1, Tool: "mock"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.FinishExecution(ctx, ex.ID, task.OutcomeSucceeded, 0, e.usage, false); err != nil {
			t.Fatal(err)
		}
	}
	out := mustCLI(t, data, "", "show", id)
	for _, want := range []string{
		"usage:     1150 in, 325 out, 7 cache read, 0 cache write, $0.2150\n",
		"           planner: 2 step(s), 150 in, 25 out, 7 cache read, 0 cache write, $0.0150\n",
		"           developer: 1 step(s), 1000 in, 300 out, 0 cache read, 0 cache write, $0.2000\n",
		"status:    pending\n",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("show lacks %q:\n%s", want, out)
		}
	}
	var shown shownWhy
	if err := json.Unmarshal([]byte(mustCLI(t, data, "", "show", id, "--json")), &shown); err != nil {
		t.Fatal(err)
	}
	u := shown.UsageByRole
	if shown.WaitingFor != nil || len(u) != 2 || u[0].Role != "planner" || u[0].Steps != 2 || u[0].TokensIn != 150 || u[0].CacheRead != 7 ||
		u[1].Role != "developer" || u[1].TokensOut != 300 || u[1].CostUSD != 0.2 {
		t.Fatalf("show --json: %+v", shown)
	}
	if out := mustCLI(t, data, "", "show", other, "--json"); !strings.Contains(out, `"usage_by_role": []`) {
		t.Fatalf("show --json of a task without steps:\n%s", out)
	}
}
