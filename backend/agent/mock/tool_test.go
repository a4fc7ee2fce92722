package mock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

func TestDeveloperEditsCommitsAndLeavesLeftovers(t *testing.T) {
	t.Parallel()
	tool := newTool(t)
	dir := gitRepo(t, "task-42")
	var chunks int
	res, rec := runRole(t, tool, dir, task.RoleDeveloper, "Build it.", func(r *agent.Request) {
		r.OnOutput = func([]byte) { chunks++ }
	})
	if res.Failed() || res.ErrorText != "" {
		t.Fatalf("failed: %+v", res)
	}
	if res.SessionID != "mock-developer-1" || res.Usage.InputTokens == 0 || res.Usage.OutputTokens == 0 || chunks == 0 {
		t.Fatalf("result %+v, %d chunks", res, chunks)
	}
	if !strings.Contains(res.Report, "mock-task-42.md") {
		t.Fatalf("report %q", res.Report)
	}
	if log := gitT(t, dir, "log", "-1", "--format=%an <%ae>|%s"); strings.TrimSpace(log) != "Boof Mock <mock@boof-runner.invalid>|mock: developer run 1" {
		t.Fatalf("last commit %q", log)
	}
	if committed := gitT(t, dir, "show", "HEAD:mock-task-42.md"); committed != "Developer run 1.\n" {
		t.Fatalf("committed file %q", committed)
	}
	status := gitT(t, dir, "status", "--porcelain")
	if !strings.Contains(status, " M mock-task-42.md") || !strings.Contains(status, "?? mock-task-42.scratch.txt") {
		t.Fatalf("status %q", status)
	}
	var kinds []string
	for _, e := range rec.all() {
		kinds = append(kinds, string(e.Kind))
	}
	if got := strings.Join(kinds, ","); !strings.HasPrefix(got, "session,text,tool_call,tool_result,tool_call,tool_result") || !strings.HasSuffix(got, "usage") {
		t.Fatalf("events %s", got)
	}
	// A second run continues the numbering and commits again.
	res, _ = runRole(t, tool, dir, task.RoleDeveloper, "Fix it.", nil)
	if res.Failed() || res.SessionID != "mock-developer-2" {
		t.Fatalf("second run %+v", res)
	}
	if n := strings.Count(gitT(t, dir, "log", "--format=%s"), "mock: developer run"); n != 2 {
		t.Fatalf("%d mock commits", n)
	}
}

// Outside a git repository (a task run without isolation) the developer
// writes its file and makes no commit, and the reviewer reads the file.
func TestOutsideGitWritesWithoutCommits(t *testing.T) {
	t.Parallel()
	tool := newTool(t)
	dir := filepath.Join(t.TempDir(), "plain")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	res, _ := runRole(t, tool, dir, task.RoleDeveloper, "Build it.", nil)
	if res.Failed() || !strings.Contains(res.Report, "no commit") {
		t.Fatalf("developer: %+v", res)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "mock-plain.md")); err != nil || string(b) != "Developer run 1.\n" {
		t.Fatalf("file: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); !os.IsNotExist(err) {
		t.Fatalf("a .git appeared: %v", err)
	}
	res, rec := runRole(t, tool, dir, task.RoleReviewer, "Review it.", nil)
	if res.Failed() || !strings.Contains(res.Report, "VERDICT: APPROVE") || !rec.has(agent.EventToolResult, "Developer run 1.") {
		t.Fatalf("reviewer: %+v", res)
	}
}

// The agent program records every prompt it got, with its role and dir.
func TestPromptsAreRecorded(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	tool := New(Options{Command: []string{os.Args[0]}, Env: []string{agentEnv + "=1", "GORACE=atexit_sleep_ms=0"}, Runner: testRunner, StateDir: state})
	a, b := gitRepo(t, "task-a"), gitRepo(t, "task-b")
	runRole(t, tool, a, task.RolePlanner, "## Task\n\nPlan A.\n", nil)
	runRole(t, tool, b, task.RoleDeveloper, "## Task\n\nBuild B. ünïcode\n", func(r *agent.Request) { r.Model = "mock" })
	got, err := ReadReceived(state)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Role != task.RolePlanner || got[0].Dir != a || got[0].Prompt != "## Task\n\nPlan A.\n" ||
		got[1].Role != task.RoleDeveloper || got[1].Dir != b || got[1].Model != "mock" || got[1].Prompt != "## Task\n\nBuild B. ünïcode\n" {
		t.Fatalf("received %+v", got)
	}
	if none, err := ReadReceived(filepath.Join(state, "nope")); err != nil || len(none) != 0 {
		t.Fatalf("missing base: %v %v", none, err)
	}
}

func TestVerdictRounds(t *testing.T) {
	t.Parallel()
	tool := newTool(t)
	dir := gitRepo(t, "verdicts")
	prompt := "Task.\n[[mock-verdicts observer=CHANGES_REQUESTED,APPROVE reviewer=CONFLICT,NONE,GARBLED,REJECT]]\n"
	for i, want := range []string{"VERDICT: CHANGES_REQUESTED", "VERDICT: APPROVE", "VERDICT: APPROVE"} {
		res, _ := runRole(t, tool, dir, task.RoleObserver, prompt, nil)
		if res.Failed() || !strings.HasSuffix(res.Report, want) {
			t.Fatalf("observer round %d: %+v", i+1, res)
		}
	}
	for i, want := range []string{"VERDICT: APPROVE\nVERDICT: REJECT", "No verdict this time.", "VERDICT: MAYBE", "VERDICT: REJECT", "VERDICT: REJECT"} {
		res, _ := runRole(t, tool, dir, task.RoleReviewer, prompt, nil)
		if res.Failed() || !strings.HasSuffix(res.Report, want) {
			t.Fatalf("reviewer round %d: %q", i+1, res.Report)
		}
		if want == "No verdict this time." && strings.Contains(res.Report, "VERDICT") {
			t.Fatalf("NONE has a verdict: %q", res.Report)
		}
	}
	// Without a marker both approve.
	res, _ := runRole(t, tool, gitRepo(t, "plain"), task.RoleReviewer, "Task.", nil)
	if !strings.HasSuffix(res.Report, "VERDICT: APPROVE") {
		t.Fatalf("default %q", res.Report)
	}
}

func TestTransientThenSuccess(t *testing.T) {
	t.Parallel()
	tool := newTool(t)
	dir := gitRepo(t, "transient")
	prompt := "[[mock-transient developer=1]]"
	res, _ := runRole(t, tool, dir, task.RoleDeveloper, prompt, nil)
	if !res.Failed() || !res.Transient || res.ErrorText != TransientError || res.StopReason != proc.ReasonNone {
		t.Fatalf("first run %+v", res)
	}
	if out := gitT(t, dir, "status", "--porcelain"); out != "" {
		t.Fatalf("transient failure edited: %q", out)
	}
	res, _ = runRole(t, tool, dir, task.RoleDeveloper, prompt, nil)
	if res.Failed() || res.Transient {
		t.Fatalf("second run %+v", res)
	}
}

func TestStallIsStoppedByIdleWatchdog(t *testing.T) {
	t.Parallel()
	tool := newTool(t)
	dir := gitRepo(t, "stall")
	prompt := "[[mock-stall developer=1]]"
	res, _ := runRole(t, tool, dir, task.RoleDeveloper, prompt, func(r *agent.Request) { r.IdleTimeout = 2 * time.Second })
	if res.StopReason != proc.ReasonStalled || !res.Transient || !res.Failed() || !strings.Contains(res.ErrorText, "stalled") {
		t.Fatalf("stalled run %+v", res)
	}
	// The second run does not stall; MaxRuntime only guards the test.
	res, _ = runRole(t, tool, dir, task.RoleDeveloper, prompt, func(r *agent.Request) { r.MaxRuntime = time.Minute })
	if res.Failed() {
		t.Fatalf("second run %+v", res)
	}
}

func TestQuestionsFirstRunOnly(t *testing.T) {
	t.Parallel()
	tool := newTool(t)
	dir := gitRepo(t, "questions")
	prompt := "[[mock-questions planner=1]]"
	res, rec := runRole(t, tool, dir, task.RolePlanner, prompt, nil)
	if res.Failed() || len(res.Questions) != 2 || !rec.has(agent.EventQuestion, "Which name") {
		t.Fatalf("first run %+v", res)
	}
	res, _ = runRole(t, tool, dir, task.RolePlanner, prompt, nil)
	if res.Failed() || res.Questions != nil || !strings.Contains(res.Report, "## Plan") {
		t.Fatalf("second run %+v", res)
	}
}

func TestBadMarkerIsAClearError(t *testing.T) {
	t.Parallel()
	dir := gitRepo(t, "bad")
	res, _ := runRole(t, newTool(t), dir, task.RoleDeveloper, "[[mock-verdicts observer=SURE]]", nil)
	if !res.Failed() || res.ExitCode != 2 || res.Transient || !strings.Contains(res.ErrorText, `unknown token "SURE"`) {
		t.Fatalf("result %+v", res)
	}
	if out := gitT(t, dir, "status", "--porcelain"); out != "" {
		t.Fatalf("bad marker changed the repo: %q", out)
	}
}

func TestMidRunInput(t *testing.T) {
	t.Parallel()
	tool := newTool(t)
	rec := &recorder{}
	started := make(chan struct{}, 1)
	run, err := tool.Start(context.Background(), agent.Request{Role: task.RoleDeveloper, Dir: gitRepo(t, "steer"),
		Prompt: "[[mock-await developer=1]]", Grace: time.Second,
		OnEvent: func(e agent.Event) {
			rec.add(e)
			if e.Kind == agent.EventText && strings.HasPrefix(e.Text, "Waiting for") {
				started <- struct{}{}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	if err := run.Send("also add tests\nplease"); err != nil {
		t.Fatal(err)
	}
	res, err := run.Wait()
	if err != nil || res.Failed() {
		t.Fatalf("wait %+v %v", res, err)
	}
	if !rec.has(agent.EventText, "received: also add tests\nplease") || !strings.Contains(res.Report, "## Steering received\n- also add tests\nplease") {
		t.Fatalf("steering lost: %q", res.Report)
	}
	if err := run.Send("too late"); !errors.Is(err, agent.ErrRunDone) {
		t.Fatalf("send after end: %v", err)
	}
}

func TestStopLeavesNoProcess(t *testing.T) {
	t.Parallel()
	tool := newTool(t)
	rec := &recorder{}
	thinking := make(chan struct{}, 1)
	run, err := tool.Start(context.Background(), agent.Request{Role: task.RoleDeveloper, Dir: gitRepo(t, "stop"),
		Prompt: "[[mock-stall developer=1]]", Grace: time.Second,
		OnEvent: func(e agent.Event) {
			rec.add(e)
			if e.Kind == agent.EventText && e.Text == "Thinking..." {
				thinking <- struct{}{}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	<-thinking
	pids := run.Pids()
	if len(pids) == 0 || run.Pid() <= 0 || run.Pgid() <= 0 {
		t.Fatalf("pids %v pid %d pgid %d", pids, run.Pid(), run.Pgid())
	}
	run.Stop(proc.ReasonStopped)
	run.Stop(proc.ReasonStopped)
	res, _ := run.Wait()
	if res.StopReason != proc.ReasonStopped || res.Transient || !res.Failed() {
		t.Fatalf("result %+v", res)
	}
	if left := alive(pids); len(left) != 0 {
		t.Fatalf("survivors %v", left)
	}
}

func TestHealthAndModels(t *testing.T) {
	t.Parallel()
	h := newTool(t).Health(context.Background(), "")
	if !h.Installed || !h.Authenticated || h.Version != Version || h.Error != "" {
		t.Fatalf("health %+v", h)
	}
	h = New(Options{Command: []string{filepath.Join(t.TempDir(), "missing")}, Runner: testRunner}).Health(context.Background(), "")
	if h.Installed || h.Error == "" {
		t.Fatalf("missing health %+v", h)
	}
	if _, err := New(Options{}).Start(context.Background(), agent.Request{Dir: t.TempDir()}); !errors.Is(err, agent.ErrNotInstalled) {
		t.Fatalf("start without command: %v", err)
	}
	if m := newTool(t).Models(context.Background()); len(m) != 1 || m[0].ID != "mock" {
		t.Fatalf("models %v", m)
	}
	if _, err := os.Stat(os.Args[0]); err != nil {
		t.Fatal(err)
	}
}
