package runner_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// clock is an injected clock tests move forward.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// runUntilIdle opens the data root's host with clk and runs the queue until
// nothing can be claimed, then closes it (a restart between calls).
func (r *root) runUntilIdle(clk *clock) {
	r.t.Helper()
	h, err := host.Open(context.Background(), host.Options{Paths: dataroot.Paths{Root: r.dir}, Store: r.st, Exe: os.Args[0], Poll: 20 * time.Millisecond, Now: clk.Now})
	if err != nil {
		r.t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := h.Run(ctx, runner.UntilIdle); err != nil {
		r.t.Fatal(err)
	}
}

func (r *root) execs(id string) []task.Execution {
	r.t.Helper()
	xs, err := r.st.Executions(context.Background(), id)
	if err != nil {
		r.t.Fatal(err)
	}
	return xs
}

// refusedCostsNothing checks that the steps refused for a usage limit are
// charged nothing: no usage on their executions, no estimate in the log,
// and the task's spend is the sum of the other steps' usage.
func refusedCostsNothing(t *testing.T, r *root, id string) {
	t.Helper()
	var want int64
	for _, x := range r.execs(id) {
		if x.Outcome == task.OutcomeLimited && x.Usage != (task.Usage{}) {
			t.Errorf("the %s step refused for the usage limit was charged %+v", x.Role, x.Usage)
		}
		want += store.BudgetTokens(x.Usage)
	}
	spend, err := r.st.TaskSpendByTool(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var got int64
	for _, s := range spend {
		got += s.Tokens
	}
	if got != want {
		t.Errorf("task spend %d tokens, its executions' usage %d", got, want)
	}
	if log := r.logText(id); strings.Contains(log, "reported no usage for developer") {
		t.Errorf("the refused step was estimated:\n%s", log)
	}
}

// A usage limit in the developer step pauses the tool until the reset: the
// task waits at the front of the queue (not failed, not retried), a task
// behind it on the same tool waits too, the pause survives a restart, and
// at the reset the task goes on from the developer step in the same native
// session, keeping the work done before the limit and not running the
// planner and refinement again.
func TestUsageLimitWaitsForTheResetAndGoesOn(t *testing.T) {
	r := newRoot(t, nil)
	clk := &clock{t: time.Now()}
	a, err := r.st.CreateTask(context.Background(), task.NewTask{Prompt: "Limited work.\n[[mock-limit developer=1]]", Runs: 1, Priority: 1})
	if err != nil {
		t.Fatal(err)
	}
	b := r.add("Queued behind.", 1)

	r.runUntilIdle(clk)
	ga := r.get(a.ID)
	if ga.Status != task.StatusPending || ga.Error != "" {
		t.Fatalf("limited task: %s %q", ga.Status, ga.Error)
	}
	if gb := r.get(b.ID); gb.Status != task.StatusPending {
		t.Fatalf("task on the paused tool ran: %s", gb.Status)
	}
	lim := r.events(a.ID, task.EventLimitReached)
	if len(lim) != 1 {
		t.Fatalf("%d limit events", len(lim))
	}
	lr := lim[0].Data.(task.LimitReached)
	if lr.Tool != "mock" || lr.Step != "developer" || lr.Action != task.LimitActionWait ||
		lr.ResetsAt.Sub(clk.Now()) < 50*time.Minute || !strings.Contains(lr.Message, "usage limit") {
		t.Fatalf("limit event %+v", lr)
	}
	if n := len(r.events(a.ID, task.EventRetryScheduled)); n != 0 {
		t.Fatalf("a usage limit was retried %d times", n)
	}
	xs := r.execs(a.ID)
	last := xs[len(xs)-1]
	if last.Role != task.RoleDeveloper || last.Outcome != task.OutcomeLimited || last.SessionID != "mock-developer-1" {
		t.Fatalf("limited execution %+v", last)
	}
	refusedCostsNothing(t, r, a.ID)
	if !strings.Contains(r.logText(a.ID), "mock paused until") {
		t.Fatalf("log does not say the tool is paused:\n%s", r.logText(a.ID))
	}

	// A restart before the reset: the pause holds, nothing runs.
	r.runUntilIdle(clk)
	if ga := r.get(a.ID); ga.Status != task.StatusPending {
		t.Fatalf("ran before the reset: %s", ga.Status)
	}
	if ps, _ := r.st.ToolPauses(context.Background(), clk.Now()); len(ps) != 1 || ps[0].Tool != "mock" || ps[0].TaskID != a.ID {
		t.Fatalf("pauses after restart: %+v", ps)
	}

	clk.Set(lr.ResetsAt.Add(time.Minute))
	r.runUntilIdle(clk)
	ga = r.get(a.ID)
	if ga.Status != task.StatusDone {
		t.Fatalf("after the reset: %s %q\n%s", ga.Status, ga.Error, r.logText(a.ID))
	}
	if gb := r.get(b.ID); gb.Status != task.StatusDone {
		t.Fatalf("queued task after the reset: %s", gb.Status)
	}
	roles := map[task.Role]int{}
	for _, x := range r.execs(a.ID) {
		roles[x.Role]++
	}
	if roles[task.RolePlanner] != 1 || roles[task.RoleRefinement] != 1 || roles[task.RoleDeveloper] != 2 {
		t.Fatalf("steps run: %v (planner and refinement must not run again)", roles)
	}
	var resumed []string
	for _, e := range r.events(a.ID, task.EventStepStarted) {
		if s := e.Data.(task.StepStarted); s.Step == "developer" {
			resumed = append(resumed, s.ResumedSession)
		}
	}
	if len(resumed) != 2 || resumed[0] != "" || resumed[1] != "mock-developer-1" {
		t.Fatalf("developer sessions: %q", resumed)
	}
	secs, _ := r.st.Sections(context.Background(), a.ID)
	kinds := map[task.SectionKind]int{}
	for _, s := range secs {
		kinds[s.Kind]++
	}
	if kinds[task.SectionPlannerReport] != 1 || kinds[task.SectionFinalPlan] != 1 || kinds[task.SectionDeveloperReport] != 1 {
		t.Fatalf("sections: %v", kinds)
	}
	// The line the developer wrote before the limit is on the task's branch.
	name := mock.FileName(filepath.Join("x", a.ID))
	body := gitRun(t, r.repo, "show", "boof-runner/"+a.ID+":"+name)
	if !strings.Contains(body, mock.LimitPartial) || !strings.Contains(body, "Developer run 2.") {
		t.Fatalf("%s on the branch:\n%s", name, body)
	}
	if _, ok, _ := r.st.ResumePoint(context.Background(), a.ID); ok {
		t.Fatal("resume point left after the task finished")
	}
}

// A limit of one tool leaves the tasks of another tool running: the
// claude-code developer (a fake CLI replaying Claude Code's
// rate_limit_event) pauses claude-code until the reset it reported, the
// mock task behind it runs, and after the reset the developer resumes its
// claude session with --resume.
func TestUsageLimitPausesOneToolOnly(t *testing.T) {
	wd, _ := os.Getwd()
	fake := filepath.Join(wd, "..", "..", "testdata", "claude")
	rec := t.TempDir()
	toolEnv := func(stream string, exit string) map[string]any {
		return map[string]any{"claude-code": map[string]any{"path": filepath.Join(fake, "fake-claude.sh"),
			"env": map[string]any{"FAKE_CLAUDE_DIR": rec, "FAKE_CLAUDE_STREAM": filepath.Join(fake, stream, "stream.jsonl"), "FAKE_CLAUDE_EXIT": exit}}}
	}
	r := newRoot(t, map[string]any{"tools": toolEnv("usage_limit", "1")})
	reset := time.Unix(1798761600, 0) // the resetsAt of the recorded event
	clk := &clock{t: reset.Add(-2 * time.Hour)}
	ctx := context.Background()
	a, err := r.st.CreateTask(ctx, task.NewTask{Prompt: "Claude develops.", Runs: 1, Priority: 1,
		Tools: task.Tools{task.RoleDeveloper: {Tool: "claude-code"}}})
	if err != nil {
		t.Fatal(err)
	}
	b := r.add("Mock only.", 1)

	r.runUntilIdle(clk)
	if ga := r.get(a.ID); ga.Status != task.StatusPending {
		t.Fatalf("limited task: %s %q\n%s", ga.Status, ga.Error, r.logText(a.ID))
	}
	if gb := r.get(b.ID); gb.Status != task.StatusDone {
		t.Fatalf("the other tool's task: %s %q", gb.Status, gb.Error)
	}
	ps, _ := r.st.ToolPauses(ctx, clk.Now())
	if len(ps) != 1 || ps[0].Tool != "claude-code" || !ps[0].Until.Equal(reset) || ps[0].Warning != "" {
		t.Fatalf("pauses: %+v", ps)
	}
	if got := ps[0].Describe(clk.Now(), time.UTC); got != "claude-code paused until 00:00 (usage limit)" && got != "claude-code paused until Jan 1 00:00 (usage limit)" {
		t.Fatalf("describe: %q", got)
	}

	// The limit resets; the next run of the CLI succeeds.
	if err := os.WriteFile(dataroot.Paths{Root: r.dir}.Settings(), mustSettings(t, r, toolEnv("success", "0")), 0o600); err != nil {
		t.Fatal(err)
	}
	clk.Set(reset.Add(time.Second))
	r.runUntilIdle(clk)
	if ga := r.get(a.ID); ga.Status != task.StatusDone {
		t.Fatalf("after the reset: %s %q\n%s", ga.Status, ga.Error, r.logText(a.ID))
	}
	args, _ := os.ReadFile(filepath.Join(rec, "args.txt"))
	if !strings.Contains(string(args), "--resume=5e551011-11a1-4a1e-9d1e-000000000001") {
		t.Fatalf("the resumed developer did not continue its session: %q", strings.ReplaceAll(string(args), "\x00", " "))
	}
}

// mustSettings returns the data root's settings file with tools replaced.
func mustSettings(t *testing.T, r *root, tools map[string]any) []byte {
	t.Helper()
	b, err := os.ReadFile(dataroot.Paths{Root: r.dir}.Settings())
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	s["tools"] = tools
	out, _ := json.MarshalIndent(s, "", "  ")
	return out
}
