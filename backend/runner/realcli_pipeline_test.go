//go:build realcli

package runner_test

// End-to-end scenarios of the whole pipeline through the runner host with
// the REAL claude and codex CLIs, pointed at the fake model server:
//
//	BOOF_CLAUDE_BIN=~/.cache/boof-runner/clis/node_modules/.bin/claude \
//	BOOF_CODEX_BIN=~/.cache/boof-runner/clis/node_modules/.bin/codex \
//	go test -race -tags realcli -run RealCLIPipeline -count=1 ./backend/runner/

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// realCLIBound bounds one run of the host in the real-CLI scenarios: a
// guard against a hang, not a measure. It is generous because the CLIs
// start slowly on a loaded machine (opencode took up to three minutes a
// step with two cores shared by forty runnable processes).
const realCLIBound = 15 * time.Minute

// realCLIIdleMs is the scenarios' idle timeout: a step that prints
// nothing for that long is stalled. opencode printed its first line only
// after two minutes and more on the loaded machine.
const realCLIIdleMs = 5 * 60 * 1000

// realBin returns $env after checking that `bin --version` prints want: it
// skips the test when env is unset and fails it when the binary is unusable.
func realBin(t *testing.T, env, want string) string {
	t.Helper()
	bin := os.Getenv(env)
	if bin == "" {
		msg := fmt.Sprintf("%s is not set; install the CLIs with scripts/install-clis.sh DIR and point it at DIR/node_modules/.bin", env)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + " (CI=true: the real-CLI suite must run)")
		}
		t.Skip(msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), want) {
		t.Fatalf("%s=%s is unusable: %v %q", env, bin, err, out)
	}
	return bin
}

// claudeSettings is settings.tools.claude-code pointing the real claude at srv.
func claudeSettings(t *testing.T, bin string, srv *fakemodel.Server, extra map[string]string) map[string]any {
	env := map[string]string{
		"HOME": t.TempDir(), "ANTHROPIC_BASE_URL": srv.URL(), "ANTHROPIC_API_KEY": "sk-ant-fake-test-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1",
	}
	for k, v := range extra {
		env[k] = v
	}
	return map[string]any{"path": bin, "env": env}
}

// codexSettings is settings.tools.codex pointing the real codex at srv. The
// provider lives in CODEX_HOME/config.toml, as a user would configure it:
// the runner hands codex nothing but settings.
func codexSettings(t *testing.T, bin string, srv *fakemodel.Server) map[string]any {
	home := t.TempDir()
	ch := filepath.Join(home, ".codex")
	if err := os.MkdirAll(ch, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := `model_provider = "fake"

[model_providers.fake]
name = "fake"
base_url = "` + srv.URL() + `/v1"
env_key = "FAKE_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
`
	if err := os.WriteFile(filepath.Join(ch, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]any{"path": bin, "env": map[string]string{
		"HOME": home, "CODEX_HOME": ch, "FAKE_KEY": "sk-fake-key", "PATH": "/usr/local/bin:/usr/bin:/bin"}}
}

// modelCall is one model request as the scenario script sees it.
type modelCall struct {
	role       task.Role // "" when no pipeline system prompt was found
	api        string    // "claude", "codex", "gemini", "opencode" or "qwen"
	toolResult bool      // the request continues a turn after a tool call
	turn       int       // 1-based count of this role's turn-opening requests
}

// pipelineModel answers model requests by pipeline role, told apart by the
// first line of the role's system prompt in the request.
type pipelineModel struct {
	mu    sync.Mutex
	turns map[task.Role]int
	calls []modelCall
}

// serve installs the responder: script picks the reply of each request
// that carries a role; other requests (the CLI's own side calls) get "ok".
func (m *pipelineModel) serve(t *testing.T, srv *fakemodel.Server, script func(c modelCall) fakemodel.Reply) {
	m.turns = map[task.Role]int{}
	t.Cleanup(func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		t.Logf("model requests (api role tool-result turn): %v", m.calls)
	})
	srv.SetResponder(func(r fakemodel.Request) fakemodel.Reply {
		c := classify(r)
		m.mu.Lock()
		if c.role != "" && !c.toolResult {
			m.turns[c.role]++
		}
		c.turn = m.turns[c.role]
		m.calls = append(m.calls, c)
		m.mu.Unlock()
		if c.role == "" {
			return sideReply(r)
		}
		return script(c)
	})
}

// turnsOf returns how many turns of role the model saw.
func (m *pipelineModel) turnsOf(role task.Role) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.turns[role]
}

// roleOrder lists planner-answer before planner: both start "You are the planner".
var roleOrder = []task.Role{task.RolePlannerAnswer, task.RolePlanner, task.RoleRefinement,
	task.RoleDeveloper, task.RoleObserver, task.RoleReviewer}

// classify finds the role and tool-result state of a recorded request.
func classify(r fakemodel.Request) modelCall {
	var system string
	c := modelCall{}
	if _, _, ok := fakemodel.GeminiMethod(r.Path); ok {
		c.api = "gemini"
		g, err := fakemodel.ParseGemini(r)
		if err != nil {
			return c
		}
		system, c.toolResult = g.SystemText(), g.HasToolResult()
	}
	switch r.Path {
	case "/v1/messages":
		c.api = "claude"
		m, err := fakemodel.ParseMessages(r.Body)
		if err != nil {
			return c
		}
		system, c.toolResult = systemText(m.System), m.HasToolResult()
	case "/v1/responses":
		c.api = "codex"
		rr, err := fakemodel.ParseResponses(r.Body)
		if err != nil {
			return c
		}
		system, c.toolResult = rr.Instructions+"\n"+rr.MessagesText("developer"), rr.HasToolResult()
	case fakemodel.ChatPath:
		cr, err := fakemodel.ParseChat(r.Body)
		if err != nil {
			return c
		}
		c.api = chatAPI(cr)
		system, c.toolResult = cr.RoleText("system"), cr.HasToolResult()
	}
	for _, role := range roleOrder {
		first, _, _ := strings.Cut(pipeline.SystemPrompt(role), "\n")
		if strings.Contains(system, first) {
			c.role = role
			return c
		}
	}
	return c
}

// systemText flattens a Messages system field (a string or text blocks).
func systemText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &blocks)
	parts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

// commitCmd is the shell command the developer runs: it appends to
// greeting.txt and commits it on the task branch.
const commitCmd = "echo hello >> greeting.txt && git add greeting.txt && git -c user.name=Dev -c user.email=dev@example.com commit -q -m greet"

// developerReply is the developer's turn in either API: the tool call, then
// after its result the report.
func developerReply(c modelCall) fakemodel.Reply {
	if c.toolResult {
		return fakemodel.Reply{Text: "Added greeting.txt and committed it.", InputTokens: 200, OutputTokens: 30}
	}
	switch c.api {
	case "codex":
		return fakemodel.Reply{Text: "Writing the greeting.", ToolCalls: []fakemodel.ToolCall{fakemodel.ExecCommand(commitCmd)}}
	case "gemini":
		return fakemodel.Reply{Text: "Writing the greeting.", ToolCalls: []fakemodel.ToolCall{{Name: "run_shell_command",
			Input: map[string]any{"command": commitCmd, "description": "write and commit greeting.txt"}}}}
	}
	return fakemodel.Reply{Text: "Writing the greeting.", ToolCalls: []fakemodel.ToolCall{{Name: "Bash",
		Input: map[string]any{"command": commitCmd, "description": "write and commit greeting.txt"}}}}
}

// planReply answers planner and refinement with a plan.
func planReply(c modelCall) fakemodel.Reply {
	return fakemodel.Reply{Text: "Plan (" + string(c.role) + "): create greeting.txt saying hello, commit it.", InputTokens: 100, OutputTokens: 20}
}

// pipelineRun is a finished run of one task through the host.
type pipelineRun struct {
	r  *root
	tk task.Task
}

// runPipeline writes settings (roles, tools, fast backoff), adds one task
// and runs the real host until idle, bounded; it then checks that no
// process survives in the worktree root.
func runPipeline(t *testing.T, roles, tools map[string]any) pipelineRun {
	t.Helper()
	return runPipelineWith(t, roles, tools, nil)
}

// runPipelineWith is runPipeline with more settings (budgets, breakers).
func runPipelineWith(t *testing.T, roles, tools, extra map[string]any) pipelineRun {
	t.Helper()
	set := map[string]any{
		"roles":   roles,
		"tools":   tools,
		"retries": map[string]any{"idleTimeoutMs": realCLIIdleMs, "backoffMs": []int{10}},
		"stop":    map[string]any{"graceMs": 2000},
	}
	for k, v := range extra {
		set[k] = v
	}
	r := newRoot(t, set)
	tk := r.add("Create greeting.txt containing hello and commit it.", 1)
	h, err := host.Open(context.Background(), host.Options{Paths: dataroot.Paths{Root: r.dir}, Store: r.st,
		Exe: os.Args[0], Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Poll: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), realCLIBound)
	runErr := h.Run(ctx, runner.UntilIdle)
	cancel()
	if err := h.Close(); err != nil {
		t.Errorf("close host: %v", err)
	}
	if runErr != nil {
		t.Fatalf("host run: %v\nlog:\n%s", runErr, r.logText(tk.ID))
	}
	if left := procsUnder(filepath.Join(r.repo, worktree.DefaultRootName)); len(left) > 0 {
		t.Errorf("processes survived in the worktree root: %v", left)
	}
	return pipelineRun{r: r, tk: r.get(tk.ID)}
}

// requireDone fails unless the task is done with its work on its branch.
func (p pipelineRun) requireDone(t *testing.T) {
	t.Helper()
	if p.tk.Status != task.StatusDone {
		t.Fatalf("task %s %q\nlog:\n%s", p.tk.Status, p.tk.Error, p.r.logText(p.tk.ID))
	}
	branch := worktree.BranchName(p.tk.ID)
	if p.tk.Branch != branch {
		t.Errorf("task branch %q, want %q", p.tk.Branch, branch)
	}
	if files := gitRun(t, p.r.repo, "ls-tree", "--name-only", branch); !strings.Contains("\n"+files+"\n", "\ngreeting.txt\n") {
		t.Errorf("branch %s holds %q, no greeting.txt", branch, files)
	}
	if p.tk.Usage.TokensIn <= 0 || p.tk.Usage.TokensOut <= 0 {
		t.Errorf("usage not recorded: %+v", p.tk.Usage)
	}
}

// sections returns the task's sections of kind.
func (p pipelineRun) sections(t *testing.T, kind task.SectionKind) []task.Section {
	t.Helper()
	all, err := p.r.st.Sections(context.Background(), p.tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	var out []task.Section
	for _, s := range all {
		if s.Kind == kind {
			out = append(out, s)
		}
	}
	return out
}

// executions returns the task's executions of role.
func (p pipelineRun) executions(t *testing.T, role task.Role) []task.Execution {
	t.Helper()
	all, err := p.r.st.Executions(context.Background(), p.tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	var out []task.Execution
	for _, x := range all {
		if role == "" || x.Role == role {
			out = append(out, x)
		}
	}
	return out
}

// sessionRe finds the native session id in a transcript: claude's
// "session_id" on every stream-json line, codex's "thread_id" of thread.started.
var sessionRe = regexp.MustCompile(`"(?:session_id|thread_id)":"([0-9a-f-]{36})"`)

// requireSessions checks that every succeeded execution's transcript names
// a native session and returns the ids by execution id.
func (p pipelineRun) requireSessions(t *testing.T) map[int64]string {
	t.Helper()
	ids := map[int64]string{}
	for _, x := range p.executions(t, "") {
		if x.Outcome != task.OutcomeSucceeded {
			continue
		}
		b, err := os.ReadFile(x.TranscriptPath)
		if err != nil {
			t.Errorf("%s transcript: %v", x.Role, err)
			continue
		}
		m := sessionRe.FindSubmatch(b)
		if m == nil {
			t.Errorf("%s (%s) transcript %s names no session", x.Role, x.Tool, x.TranscriptPath)
			continue
		}
		ids[x.ID] = string(m[1])
	}
	return ids
}

func claudeRole() map[string]any {
	return map[string]any{"tool": "claude-code", "model": "claude-sonnet-4-6"}
}

func TestRealCLIPipelineClaudeAllRoles(t *testing.T) {
	t.Parallel()
	bin := realBin(t, "BOOF_CLAUDE_BIN", "Claude Code")
	srv := fakemodel.Start(t)
	var model pipelineModel
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		switch c.role {
		case task.RoleDeveloper:
			return developerReply(c)
		case task.RoleReviewer:
			return fakemodel.Reply{Text: "The greeting is there and committed.\n\nVERDICT: APPROVE", InputTokens: 150, OutputTokens: 25}
		default:
			return planReply(c)
		}
	})
	roles := map[string]any{"planner": claudeRole(), "refinement": claudeRole(), "developer": claudeRole(), "reviewer": claudeRole()}
	p := runPipeline(t, roles, map[string]any{"claude-code": claudeSettings(t, bin, srv, nil)})
	p.requireDone(t)

	for _, kind := range []task.SectionKind{task.SectionPlannerReport, task.SectionFinalPlan, task.SectionDeveloperReport} {
		if secs := p.sections(t, kind); len(secs) != 1 || strings.TrimSpace(secs[0].Body) == "" {
			t.Errorf("%s sections: %+v", kind, secs)
		}
	}
	if secs := p.sections(t, task.SectionFinalPlan); len(secs) == 1 && !strings.Contains(secs[0].Body, "Plan (refinement)") {
		t.Errorf("final plan is not the refinement's reply: %q", secs[0].Body)
	}
	if secs := p.sections(t, task.SectionDeveloperReport); len(secs) == 1 && secs[0].Body != "Added greeting.txt and committed it." {
		t.Errorf("developer report %q", secs[0].Body)
	}
	rev := p.sections(t, task.SectionReviewerReport)
	if len(rev) != 1 || rev[0].Verdict != string(task.VerdictApprove) || !strings.HasSuffix(rev[0].Body, "VERDICT: APPROVE") {
		t.Errorf("reviewer sections: %+v", rev)
	}
	xs := p.executions(t, "")
	if len(xs) != 4 {
		t.Errorf("%d executions, want planner, refinement, developer, reviewer", len(xs))
	}
	for _, x := range xs {
		if x.Tool != "claude-code" || x.Outcome != task.OutcomeSucceeded || x.Usage.TokensIn <= 0 {
			t.Errorf("execution %s: tool %s outcome %s usage %+v", x.Role, x.Tool, x.Outcome, x.Usage)
		}
	}
	ids := p.requireSessions(t)
	seen := map[string]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	if len(ids) != 4 || len(seen) != 4 {
		t.Errorf("want 4 distinct claude sessions, got %v", ids)
	}
	for _, role := range []task.Role{task.RolePlanner, task.RoleRefinement, task.RoleDeveloper, task.RoleReviewer} {
		if n := model.turnsOf(role); n != 1 {
			t.Errorf("model saw %d %s turns, want 1", n, role)
		}
	}
}

func TestRealCLIPipelineCodexDeveloperObserverFixLoop(t *testing.T) {
	t.Parallel()
	cl := realBin(t, "BOOF_CLAUDE_BIN", "Claude Code")
	cx := realBin(t, "BOOF_CODEX_BIN", "codex")
	srv := fakemodel.Start(t)
	var model pipelineModel
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		switch c.role {
		case task.RoleDeveloper:
			return developerReply(c)
		case task.RoleObserver:
			if c.turn == 1 {
				return fakemodel.Reply{Text: "- greeting.txt needs a second line.\n\nVERDICT: CHANGES_REQUESTED", InputTokens: 90, OutputTokens: 15}
			}
			return fakemodel.Reply{Text: "Fixed as asked.\n\nVERDICT: APPROVE", InputTokens: 90, OutputTokens: 15}
		case task.RoleReviewer:
			return fakemodel.Reply{Text: "Looks right.\n\nVERDICT: APPROVE"}
		default:
			return planReply(c)
		}
	})
	codexRole := map[string]any{"tool": "codex", "model": "gpt-6.2-sol"}
	roles := map[string]any{"planner": claudeRole(), "refinement": claudeRole(), "developer": codexRole,
		"observer": codexRole, "reviewer": claudeRole()}
	p := runPipeline(t, roles, map[string]any{"claude-code": claudeSettings(t, cl, srv, nil), "codex": codexSettings(t, cx, srv)})
	p.requireDone(t)

	devs := p.executions(t, task.RoleDeveloper)
	if len(devs) != 2 || devs[0].Round != 0 || devs[1].Round != 1 {
		t.Errorf("developer executions %+v, want rounds 0 and 1", devs)
	}
	for _, x := range append(devs, p.executions(t, task.RoleObserver)...) {
		if x.Tool != "codex" || x.Outcome != task.OutcomeSucceeded || x.Usage.TokensIn <= 0 {
			t.Errorf("execution %s round %d: tool %s outcome %s usage %+v", x.Role, x.Round, x.Tool, x.Outcome, x.Usage)
		}
	}
	obs := p.sections(t, task.SectionObserverReport)
	if len(obs) != 2 || obs[0].Round != 1 || obs[0].Verdict != string(task.VerdictChangesRequested) ||
		obs[1].Round != 2 || obs[1].Verdict != string(task.VerdictApprove) {
		t.Errorf("observer sections %+v", obs)
	}
	if dr := p.sections(t, task.SectionDeveloperReport); len(dr) != 2 {
		t.Errorf("developer reports %+v", dr)
	}
	if rev := p.sections(t, task.SectionReviewerReport); len(rev) != 1 || rev[0].Verdict != string(task.VerdictApprove) {
		t.Errorf("reviewer sections %+v", rev)
	}
	// The fix round's prompt carried the observer's finding to codex.
	var fixSeen bool
	for _, r := range srv.ModelRequests("/v1/responses") {
		if c := classify(r); c.role == task.RoleDeveloper && strings.Contains(string(r.Body), "greeting.txt needs a second line") {
			fixSeen = true
		}
	}
	if !fixSeen {
		t.Error("no developer request carried the observer's finding")
	}
	if n := strings.Count(gitRun(t, p.r.repo, "show", worktree.BranchName(p.tk.ID)+":greeting.txt"), "hello"); n != 2 {
		t.Errorf("greeting.txt has %d hello lines, want one per developer round", n)
	}
	if !strings.Contains(p.r.logText(p.tk.ID), "Observer requested changes: developer fix round 1") {
		t.Error("log lacks the fix-round line")
	}
	p.requireSessions(t)
}

func TestRealCLIPipelineReviewerTransientRetried(t *testing.T) {
	t.Parallel()
	bin := realBin(t, "BOOF_CLAUDE_BIN", "Claude Code")
	srv := fakemodel.Start(t)
	var model pipelineModel
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		switch c.role {
		case task.RoleDeveloper:
			return developerReply(c)
		case task.RoleReviewer:
			if c.turn <= 2 {
				return fakemodel.Reply{Status: 529}
			}
			return fakemodel.Reply{Text: "Good.\n\nVERDICT: APPROVE"}
		default:
			return planReply(c)
		}
	})
	roles := map[string]any{"planner": claudeRole(), "refinement": claudeRole(), "developer": claudeRole(), "reviewer": claudeRole()}
	p := runPipeline(t, roles, map[string]any{"claude-code": claudeSettings(t, bin, srv, map[string]string{"CLAUDE_CODE_MAX_RETRIES": "0"})})
	p.requireDone(t)

	revs := p.executions(t, task.RoleReviewer)
	if len(revs) != 3 {
		t.Fatalf("%d reviewer executions, want 3 attempts", len(revs))
	}
	for i, want := range []task.ExecOutcome{task.OutcomeTransient, task.OutcomeTransient, task.OutcomeSucceeded} {
		if revs[i].Attempt != i+1 || revs[i].Outcome != want {
			t.Errorf("reviewer attempt %d: %+v, want outcome %s", i+1, revs[i], want)
		}
	}
	log := p.r.logText(p.tk.ID)
	for _, want := range []string{"Transient failure in reviewer-1 (attempt 1/3)", "Transient failure in reviewer-1 (attempt 2/3)", "API Error: 529"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if rev := p.sections(t, task.SectionReviewerReport); len(rev) != 1 || rev[0].Verdict != string(task.VerdictApprove) {
		t.Errorf("reviewer sections %+v", rev)
	}
	if n := model.turnsOf(task.RoleReviewer); n != 3 {
		t.Errorf("model saw %d reviewer turns, want 3", n)
	}
}
