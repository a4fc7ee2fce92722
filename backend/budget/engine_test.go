package budget

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// fixture is a real store, an engine on an injected clock, and a log.
type fixture struct {
	t   testing.TB
	st  *store.Store
	e   *Engine
	now time.Time
	mu  sync.Mutex
	log bytes.Buffer
}

func newFixture(t testing.TB, start time.Time) *fixture {
	t.Helper()
	f := &fixture{t: t, now: start}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "boof.db"), store.Options{Now: f.clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f.st = st
	f.e = New(Options{Store: st, Now: f.clock, Location: time.UTC, Logger: slog.New(slog.NewTextHandler(&f.log, nil))})
	return f
}

func (f *fixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fixture) set(t time.Time) {
	f.mu.Lock()
	f.now = t
	f.mu.Unlock()
}

// step claims a new task and opens a step of tool on it.
func (f *fixture) step(tool string) (*Step, *[]Reached) {
	f.t.Helper()
	ctx := context.Background()
	tk, err := f.st.CreateTask(ctx, task.NewTask{Prompt: "p"})
	if err != nil {
		f.t.Fatal(err)
	}
	ex, err := f.st.Claim(ctx, tk.ID, store.ClaimInfo{Role: task.RoleDeveloper, Attempt: 1, Iteration: 1, Tool: tool})
	if err != nil {
		f.t.Fatal(err)
	}
	var stops []Reached
	s := &Step{TaskID: tk.ID, ExecID: ex.ID, Tool: tool, Stop: func(r Reached) { stops = append(stops, r) }}
	return s, &stops
}

func usd(v float64) *float64 { return &v }
func toks(v int64) *int64    { return &v }

// Warn mode: 80 % and 100 % are each crossed once; nothing stops.
func TestWarnCrossesOnce(t *testing.T) {
	f := newFixture(t, t0)
	ctx := context.Background()
	if err := f.e.Configure(ctx, settings.Budgets{Task: &settings.Limit{Tokens: toks(1000)}}); err != nil {
		t.Fatal(err)
	}
	s, stops := f.step("codex")
	if r, _, err := f.e.Begin(ctx, s); r != nil || err != nil {
		t.Fatal(r, err)
	}
	var got []int
	for _, n := range []int64{500, 850, 900, 1000, 1500} {
		res, err := f.e.Record(ctx, s, task.Usage{TokensIn: n}, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Crossings {
			got = append(got, c.Percent)
		}
		if res.Reached != nil {
			t.Fatal("warn mode reached a cap")
		}
	}
	if len(got) != 2 || got[0] != 80 || got[1] != 100 || len(*stops) != 0 {
		t.Fatalf("crossings %v stops %v", got, *stops)
	}
}

// A per-tool daily cap covers only that tool's steps: reaching it stops
// every live step of the tool (of any task) once, not the others, and holds
// back the tasks that use the tool; the next day it holds nothing and the
// stopped task is retryable in one action.
func TestToolDailyCapStopsAndRollsOver(t *testing.T) {
	f := newFixture(t, time.Date(2026, 3, 4, 23, 0, 0, 0, time.UTC))
	ctx := context.Background()
	b := settings.Budgets{Tools: map[string]settings.ToolBudgets{"codex": {Daily: &settings.Limit{USD: usd(1), Mode: settings.ModeCap}}}}
	if err := f.e.Configure(ctx, b); err != nil {
		t.Fatal(err)
	}
	a, aStops := f.step("codex")
	other, oStops := f.step("codex")
	mock, mStops := f.step("mock")
	for _, s := range []*Step{a, other, mock} {
		if r, _, err := f.e.Begin(ctx, s); r != nil || err != nil {
			t.Fatal(r, err)
		}
	}
	res, err := f.e.Record(ctx, a, task.Usage{TokensIn: 10, CostUSD: 0.9}, false)
	if err != nil || res.Reached != nil || len(res.Crossings) != 1 || res.Crossings[0].Percent != 80 {
		t.Fatalf("at 90 %%: %+v %v", res, err)
	}
	if _, err := f.e.Record(ctx, mock, task.Usage{TokensIn: 10, CostUSD: 5}, false); err != nil {
		t.Fatal(err)
	}
	res, err = f.e.Record(ctx, other, task.Usage{TokensIn: 10, CostUSD: 0.1}, false)
	if err != nil || res.Reached == nil || res.Reached.Reason() != "budget: codex daily cap $1.00 reached" {
		t.Fatalf("at 100 %%: %+v %v", res, err)
	}
	if len(*aStops) != 1 || len(*oStops) != 1 || len(*mStops) != 0 {
		t.Fatalf("stops: codex %d %d, mock %d", len(*aStops), len(*oStops), len(*mStops))
	}
	if want := time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC); !res.Reached.Resets.Equal(want) {
		t.Fatalf("resets %v", res.Reached.Resets)
	}
	// The task a is stopped by the cap (as the pipeline records it).
	if _, err := f.st.Transition(ctx, a.TaskID, task.StatusStopped, store.TransitionNote{Reason: StatusReason(res.Reached.Scope), Error: res.Reached.Reason()}); err != nil {
		t.Fatal(err)
	}
	pending, _ := f.st.CreateTask(ctx, task.NewTask{Prompt: "next"})
	set := settings.Defaults(settings.Catalog{Names: []string{"codex", "mock"}})
	set.Budgets = b
	set.Roles.Developer = settings.ToolRef{Tool: "codex"} // the others use mock
	for _, r := range []*settings.ToolRef{&set.Roles.Planner, &set.Roles.Refinement, &set.Roles.Reviewer} {
		*r = settings.ToolRef{Tool: "mock"}
	}
	if r, err := f.e.Hold(ctx, pending, []string{"codex"}); err != nil || r == nil {
		t.Fatalf("hold of a codex task: %v %v", r, err)
	}
	if r, _ := f.e.Hold(ctx, pending, []string{"mock"}); r != nil {
		t.Fatalf("a mock-only task held: %v", r)
	}
	rep, err := Snapshot(ctx, f.st, set, f.clock(), time.UTC)
	if err != nil || len(rep.Stopped) != 1 || rep.Stopped[0].HeldBy == "" || len(rep.Retryable()) != 0 || !rep.Lines[0].Blocking {
		t.Fatalf("report before the rollover %+v %v", rep, err)
	}
	// Midnight: the day rolls over.
	f.set(time.Date(2026, 3, 5, 0, 0, 1, 0, time.UTC))
	if r, err := f.e.Hold(ctx, pending, []string{"codex"}); err != nil || r != nil {
		t.Fatalf("hold after the rollover: %v %v", r, err)
	}
	retried, held, err := RetryReleased(ctx, f.st, set, f.clock(), time.UTC)
	if err != nil || len(retried) != 1 || retried[0].ID != a.TaskID || len(held) != 0 {
		t.Fatalf("retry %+v %+v %v", retried, held, err)
	}
	if got, _ := f.st.GetTask(ctx, a.TaskID); got.Status != task.StatusPending {
		t.Fatalf("retried task %s", got.Status)
	}
}

// Lowering a cap below what is spent applies at once: the live steps it
// covers stop and the log says so.
func TestCapBelowSpentAppliesAtOnce(t *testing.T) {
	f := newFixture(t, t0)
	ctx := context.Background()
	if err := f.e.Configure(ctx, settings.Budgets{}); err != nil {
		t.Fatal(err)
	}
	s, stops := f.step("mock")
	if _, _, err := f.e.Begin(ctx, s); err != nil {
		t.Fatal(err)
	}
	if _, err := f.e.Record(ctx, s, task.Usage{TokensIn: 5000}, true); err != nil {
		t.Fatal(err)
	}
	if err := f.e.Configure(ctx, settings.Budgets{Monthly: &settings.Limit{Tokens: toks(4000), Mode: settings.ModeCap}}); err != nil {
		t.Fatal(err)
	}
	if len(*stops) != 1 || (*stops)[0].Reason() != "budget: monthly cap 4,000 tokens reached" {
		t.Fatalf("stops %+v", *stops)
	}
	if !strings.Contains(f.log.String(), "the monthly budget 4,000 tokens is already reached") ||
		!strings.Contains(f.log.String(), "applies at once") {
		t.Fatalf("log %s", f.log.String())
	}
	// A new step of any task is refused.
	s2, _ := f.step("mock")
	if r, _, err := f.e.Begin(ctx, s2); err != nil || r == nil {
		t.Fatalf("begin under a reached cap: %v %v", r, err)
	}
}

// A clock that jumps backwards is held at the latest time it gave: spend
// is not stamped into the past (no day counted twice), and the jump is
// logged once.
func TestClockBackwards(t *testing.T) {
	f := newFixture(t, time.Date(2026, 3, 5, 0, 30, 0, 0, time.UTC))
	ctx := context.Background()
	if err := f.e.Configure(ctx, settings.Budgets{Daily: &settings.Limit{Tokens: toks(1000), Mode: settings.ModeCap}}); err != nil {
		t.Fatal(err)
	}
	s, stops := f.step("mock")
	if _, _, err := f.e.Begin(ctx, s); err != nil {
		t.Fatal(err)
	}
	if _, err := f.e.Record(ctx, s, task.Usage{TokensIn: 600}, true); err != nil {
		t.Fatal(err)
	}
	f.set(time.Date(2026, 3, 4, 22, 0, 0, 0, time.UTC)) // back into yesterday
	if _, err := f.e.Record(ctx, s, task.Usage{TokensIn: 900}, true); err != nil {
		t.Fatal(err)
	}
	if _, err := f.e.Record(ctx, s, task.Usage{TokensIn: 1000}, true); err != nil {
		t.Fatal(err)
	}
	if len(*stops) != 1 {
		t.Fatalf("the spend after the jump counted elsewhere: stops %v", *stops)
	}
	if n := strings.Count(f.log.String(), "the clock went back by 2h30m0s"); n != 1 {
		t.Fatalf("jump logged %d times: %s", n, f.log.String())
	}
	today, _ := f.st.SpendByTool(ctx, time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC), time.Date(2026, 3, 6, 0, 0, 0, 0, time.UTC))
	if len(today) != 1 || today[0].Tokens != 1000 {
		t.Fatalf("today's spend %+v", today)
	}
}
