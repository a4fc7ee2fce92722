package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// handoffFiles returns the task's handoff files by step name (in the
// order written) and fails when one lies in the worktree.
func (e *env) handoffFiles(id string) map[string][]string {
	e.t.Helper()
	paths, err := filepath.Glob(filepath.Join(e.opts.TranscriptDir, id, "i*-handoff-*.md"))
	if err != nil {
		e.t.Fatal(err)
	}
	no := func(p string) int {
		n, _ := strconv.Atoi(strings.TrimSuffix(p[strings.LastIndex(p, "-")+1:], ".md"))
		return n
	}
	sort.Slice(paths, func(i, j int) bool { return no(paths[i]) < no(paths[j]) })
	out := map[string][]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			e.t.Fatal(err)
		}
		base := filepath.Base(p)
		step := base[strings.Index(base, "-")+1 : strings.Index(base, "-handoff-")]
		out[step] = append(out[step], string(b))
	}
	return out
}

// Every step end of a run leaves a handoff next to the task's transcripts:
// the tool, model and native session of the step, what it did (its
// report), what is broken, the next step and the files touched, scrubbed
// of the secret the developer printed (and the one in the task's prompt).
func TestEveryStepEndWritesAHandoff(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(s *settings.Settings) { s.Roles.Developer.Model = "mock-handoff-model" })
	if err := os.WriteFile(filepath.Join(e.repo, mock.LeakFile), []byte("GITHUB_TOKEN="+handoffSecret+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, e.repo, "add", mock.LeakFile)
	gitRun(t, e.repo, "commit", "-qm", "config")
	tk := e.addTask("Step handoffs, token "+handoffSecret+".\n[[mock-leak developer=1]]", 1)
	if res := e.claimRun(context.Background(), tk.ID); res.Status != task.StatusDone {
		t.Fatalf("status %s (%s)\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	wt := e.get(tk.ID).WorktreePath
	files := e.handoffFiles(tk.ID)
	next := map[string]string{
		"planner":    "The refinement turns the plan into the final plan.",
		"refinement": "The developer implements the final plan.",
		"developer":  "The review gate: the verify command, the observer when enabled, then the reviewer.",
		"reviewer-1": "The task is done: the user reviews the diff and accepts it.",
	}
	if len(files) != len(next) {
		t.Fatalf("handoffs of steps %v, want one per step of %v", keys(files), keys(next))
	}
	for step, want := range next {
		hs := files[step]
		if len(hs) != 1 {
			t.Fatalf("step %s left %d handoffs", step, len(hs))
		}
		h := hs[0]
		mustContain(t, h, "# Handoff of step "+step, "Why: step "+step+" ended", "From: mock",
			", session mock-"+strings.TrimSuffix(step, "-1")+"-1", "## What was done", "## What to do next\n\n"+want,
			"## Files changed on the branch", "## What the task is")
		if strings.Contains(h, handoffSecret) {
			t.Errorf("handoff of %s carries the secret:\n%s", step, h)
		}
		if strings.Contains(h, "## What is broken") || strings.Contains(h, "To: ") {
			t.Errorf("handoff of a successful step %s names something broken or a target tool:\n%s", step, h)
		}
	}
	dev := files["developer"][0]
	mustContain(t, dev, "From: mock (model mock-handoff-model)", "## Config found", "GITHUB_TOKEN=[REDACTED]",
		"- added "+mock.FileName(wt))
	mustContain(t, files["planner"][0], "No files changed on the branch yet.")
	mustContain(t, files["reviewer-1"][0], "- added "+mock.FileName(wt))
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// stopInDeveloper runs tk until its developer step runs, stops it and
// returns the native session the stopped developer recorded.
func (e *env) stopInDeveloper(tk task.Task) string {
	e.t.Helper()
	ctx := context.Background()
	done := e.startRun(ctx, tk.ID)
	x := e.waitOpenExec(tk.ID, task.RoleDeveloper)
	deadline := time.Now().Add(60 * time.Second)
	// The mock names its session before it says anything, and says
	// "Thinking..." once it has counted this run as its stalled one (stopped
	// before that, the next developer run would stall instead).
	for stalled := false; !stalled; {
		if time.Now().After(deadline) {
			e.t.Fatal("the developer did not stall within 60s")
		}
		for _, h := range e.hookEvents() {
			text, ok := h.ev.Data.(task.AgentText)
			stalled = stalled || (ok && h.execID == x.ID && text.Text == "Thinking...")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := e.st.RequestStop(ctx, tk.ID); err != nil {
		e.t.Fatal(err)
	}
	if res := <-done; res.Status != task.StatusStopped {
		e.t.Fatalf("status %s %q\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	session := ""
	for _, x := range e.execs(tk.ID) {
		if x.Role == task.RoleDeveloper && x.SessionID != "" {
			session = x.SessionID
		}
	}
	if session == "" {
		e.t.Fatalf("the stopped developer recorded no session: %+v", e.execs(tk.ID))
	}
	h := e.handoffFiles(tk.ID)["developer"]
	if len(h) != 1 {
		e.t.Fatalf("the stopped developer left %d handoffs", len(h))
	}
	mustContain(e.t.(*testing.T), h[0], "## What is broken\n\nThe step was stopped before it finished.",
		"session "+session, "Retry the task: step developer goes on")
	if _, err := e.st.RetryWith(ctx, tk.ID, store.RetryOptions{}); err != nil {
		e.t.Fatal(err)
	}
	return session
}

// A task stopped in its developer step whose developer tool the user then
// changes goes on, when resumed, on the new tool in a fresh session whose
// prompt carries the stopped step's handoff (scrubbed); the old tool's
// session is not resumed.
func TestResumeOnAnotherToolStartsFreshWithTheHandoff(t *testing.T) {
	t.Parallel()
	e, alt := switchEnv(t, true, nil)
	tk := e.addTask("Hand over, token "+handoffSecret+".\n[[mock-stall developer=1]]", 1)
	session := e.stopInDeveloper(tk)
	e.set.Roles.Developer = settings.ToolRef{Tool: "mock-b"}
	if res := e.claimRun(context.Background(), tk.ID); res.Status != task.StatusDone {
		t.Fatalf("status %s (%s)\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	if n := len(e.rec.prompts(task.RoleDeveloper)); n != 1 {
		t.Fatalf("mock developer ran %d times, want once (the stopped run)", n)
	}
	devB := alt.prompts(task.RoleDeveloper)
	if len(devB) != 1 {
		t.Fatalf("mock-b developer ran %d times", len(devB))
	}
	_, h, ok := strings.Cut(devB[0], HeadingHandoff)
	if !ok {
		t.Fatalf("mock-b's prompt carries no handoff:\n%s", devB[0])
	}
	mustContain(t, h, "# Handoff of step developer", "From: mock, session "+session,
		"The step was stopped before it finished.", "## The plan", "[REDACTED]")
	if strings.Contains(h, handoffSecret) {
		t.Errorf("the handoff is not scrubbed:\n%s", h)
	}
	for _, q := range alt.reqs {
		if q.ResumeSession != "" {
			t.Errorf("mock-b was asked to resume session %q", q.ResumeSession)
		}
	}
	// The resumed run numbers its handoffs on: the stopped step's is kept.
	devH := e.handoffFiles(tk.ID)["developer"]
	if len(devH) != 2 {
		t.Fatalf("developer handoffs %d, want the stopped one and the resumed one", len(devH))
	}
	mustContain(t, devH[0], "From: mock, session "+session, "The step was stopped before it finished.")
	mustContain(t, devH[1], "From: mock-b, session ", "## What to do next\n\nThe review gate")
	mustContain(t, e.logText(tk.ID), "Step developer was cut short on mock (session "+session+"); it now runs on mock-b in a fresh session with its handoff")
}

// Resumed on the same tool, the stopped developer step continues its
// native session and gets no handoff.
func TestResumeOnTheSameToolContinuesTheSession(t *testing.T) {
	t.Parallel()
	e, _ := switchEnv(t, true, nil)
	tk := e.addTask("Keep going.\n[[mock-stall developer=1]]", 1)
	session := e.stopInDeveloper(tk)
	if res := e.claimRun(context.Background(), tk.ID); res.Status != task.StatusDone {
		t.Fatalf("status %s (%s)\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	var devs []string
	for _, q := range e.rec.reqs {
		if q.Role == task.RoleDeveloper {
			devs = append(devs, q.ResumeSession)
			if q.ResumeSession != "" && strings.Contains(q.Prompt, HeadingHandoff) {
				t.Errorf("a resumed session got a handoff")
			}
		}
	}
	if len(devs) != 2 || devs[0] != "" || devs[1] != session {
		t.Fatalf("developer resume sessions %q, want [\"\" %q]", devs, session)
	}
}

// A task a usage limit sent back to the queue whose developer tool the
// user changes before it goes on: the developer step starts fresh on the
// new tool with the limited step's handoff, not with --resume.
func TestLimitResumeOnAnotherToolStartsFreshWithTheHandoff(t *testing.T) {
	t.Parallel()
	e, alt := switchEnv(t, true, nil)
	ctx := context.Background()
	tk := e.addTask("Wait, then hand over.\n[[mock-limit developer=1]]", 1)
	if res := e.claimRun(ctx, tk.ID); res.Status != task.StatusPending {
		t.Fatalf("status %s (%s)\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	if _, err := e.st.ResumeTool(ctx, mock.Name, time.Now()); err != nil {
		t.Fatal(err)
	}
	e.set.Roles.Developer = settings.ToolRef{Tool: "mock-b"}
	if res := e.claimRun(ctx, tk.ID); res.Status != task.StatusDone {
		t.Fatalf("status %s (%s)\n%s", res.Status, res.Message, e.logText(tk.ID))
	}
	devB := alt.prompts(task.RoleDeveloper)
	if len(devB) != 1 {
		t.Fatalf("mock-b developer ran %d times", len(devB))
	}
	_, h, ok := strings.Cut(devB[0], HeadingHandoff)
	if !ok {
		t.Fatalf("mock-b's prompt carries no handoff:\n%s", devB[0])
	}
	mustContain(t, h, "# Handoff of step developer", "From: mock, session mock-developer-1",
		"## What is broken\n\nmock reached its usage limit")
	for _, q := range alt.reqs {
		if q.ResumeSession != "" {
			t.Errorf("mock-b was asked to resume session %q", q.ResumeSession)
		}
	}
}

// stepEnd names what is broken and what comes next for each way a step ends.
func TestStepEndSaysWhatIsBrokenAndWhatIsNext(t *testing.T) {
	dev := stepSpec{role: task.RoleDeveloper}
	rev := stepSpec{role: task.RoleReviewer, round: 2}
	for _, tc := range []struct {
		name         string
		s            stepSpec
		res          agent.Result
		err          error
		broken, next string
	}{
		{"stopped", dev, agent.Result{}, errStopped, "The step was stopped before it finished.", "Retry the task: step developer goes on"},
		{"failed", dev, agent.Result{}, &failure{"developer failed: exit code 3"}, "developer failed: exit code 3", "Retry the task: step developer goes on"},
		{"limited", dev, agent.Result{}, &limited{tool: "claude-code", limit: agent.Limit{Message: "limit reached · resets 2pm"}},
			"claude-code reached its usage limit: limit reached · resets 2pm", "goes on once claude-code's pause ends"},
		{"changes requested", rev, agent.Result{Report: "Fix it.\n\nVERDICT: CHANGES_REQUESTED"}, nil,
			`The reviewer did not approve (verdict "CHANGES_REQUESTED")`, "A developer fix round addresses the report"},
		{"approved", rev, agent.Result{Report: "Fine.\n\nVERDICT: APPROVE"}, nil, "", "The task is done"},
		{"developer done", dev, agent.Result{Report: "Done."}, nil, "", "The review gate"},
	} {
		broken, next := stepEnd(tc.s, tc.res, tc.err)
		if (tc.broken == "") != (broken == "") || !strings.Contains(broken, tc.broken) || !strings.Contains(next, tc.next) {
			t.Errorf("%s: broken %q next %q, want %q and %q", tc.name, broken, next, tc.broken, tc.next)
		}
	}
}
