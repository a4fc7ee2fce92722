//go:build realcli

package runner_test

// The whole pipeline through the runner host with the REAL opencode and
// Qwen Code CLIs, pointed at the fake chat-completions server (their
// OpenAI-compatible endpoint, OPENAI_BASE_URL):
//
//	BOOF_OPENCODE_BIN=…/opencode BOOF_QWEN_BIN=…/qwen BOOF_CLAUDE_BIN=…/claude \
//	go test -race -tags realcli -run 'RealCLI.*(Opencode|Qwen)' -count=1 ./backend/runner/

import (
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// chatAPI tells the two CLIs apart in a chat-completions request by the
// shell tool they offer.
func chatAPI(cr fakemodel.ChatRequest) string {
	switch {
	case cr.HasTool("run_shell_command"):
		return "qwen"
	case cr.HasTool("bash"):
		return "opencode"
	}
	return "chat"
}

// openAISettings is settings.tools.<tool> pointing a CLI at srv as its
// OpenAI-compatible endpoint, with a HOME of its own.
func openAISettings(t *testing.T, bin string, srv *fakemodel.Server) map[string]any {
	return map[string]any{"path": bin, "env": map[string]string{
		"HOME": t.TempDir(), "PATH": "/usr/local/bin:/usr/bin:/bin", "OPENAI_BASE_URL": srv.URL() + "/v1",
		"OPENAI_API_KEY": "sk-fake-endpoint-key", "OPENAI_MODEL": "fake-model"}}
}

// chatDeveloperReply is the developer's turn for opencode or qwen: the
// commit through the CLI's own shell tool, then the report.
func chatDeveloperReply(c modelCall) fakemodel.Reply {
	if c.toolResult {
		return fakemodel.Reply{Text: "Added greeting.txt and committed it.", InputTokens: 200, OutputTokens: 30}
	}
	call := fakemodel.ToolCall{Name: "bash", Input: map[string]any{"command": commitCmd, "description": "write and commit greeting.txt"}}
	if c.api == "qwen" {
		call = fakemodel.ToolCall{Name: "run_shell_command", Input: map[string]any{"command": commitCmd, "description": "write and commit greeting.txt"}}
	}
	return fakemodel.Reply{Text: "Writing the greeting.", ToolCalls: []fakemodel.ToolCall{call}, InputTokens: 150, OutputTokens: 20}
}

// allRoles runs every role of one task on tool against the fake and checks
// the work, the reports, one session and usage per step.
func allRoles(t *testing.T, tool, env string) {
	bin := realBin(t, env, map[string]string{"opencode": "1.18.", "qwen-code": "0.24."}[tool])
	srv := fakemodel.Start(t)
	var model pipelineModel
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		switch c.role {
		case task.RoleDeveloper:
			return chatDeveloperReply(c)
		case task.RoleReviewer:
			return fakemodel.Reply{Text: "The greeting is there and committed.\n\nVERDICT: APPROVE", InputTokens: 150, OutputTokens: 25}
		default:
			return planReply(c)
		}
	})
	role := map[string]any{"tool": tool, "model": "fake-model"}
	roles := map[string]any{"planner": role, "refinement": role, "developer": role, "reviewer": role}
	p := runPipeline(t, roles, map[string]any{tool: openAISettings(t, bin, srv)})
	p.requireDone(t)

	for _, kind := range []task.SectionKind{task.SectionPlannerReport, task.SectionFinalPlan, task.SectionDeveloperReport} {
		if secs := p.sections(t, kind); len(secs) != 1 || strings.TrimSpace(secs[0].Body) == "" {
			t.Errorf("%s sections: %+v", kind, secs)
		}
	}
	if secs := p.sections(t, task.SectionDeveloperReport); len(secs) == 1 && secs[0].Body != "Added greeting.txt and committed it." {
		t.Errorf("developer report %q", secs[0].Body)
	}
	if rev := p.sections(t, task.SectionReviewerReport); len(rev) != 1 || rev[0].Verdict != string(task.VerdictApprove) {
		t.Errorf("reviewer sections: %+v", rev)
	}
	xs := p.executions(t, "")
	if len(xs) != 4 {
		t.Errorf("%d executions, want planner, refinement, developer, reviewer", len(xs))
	}
	seen := map[string]bool{}
	for _, x := range xs {
		if x.Tool != tool || x.Model != "fake-model" || x.Outcome != task.OutcomeSucceeded || x.Usage.TokensIn <= 0 || x.SessionID == "" {
			t.Errorf("execution %s: tool %s model %s outcome %s usage %+v session %q", x.Role, x.Tool, x.Model, x.Outcome, x.Usage, x.SessionID)
		}
		seen[x.SessionID] = true
	}
	if len(seen) != len(xs) {
		t.Errorf("steps shared a session: %d sessions for %d steps", len(seen), len(xs))
	}
	if dev := p.executions(t, task.RoleDeveloper); len(dev) == 1 && (dev[0].Usage.TokensIn != 350 || dev[0].Usage.TokensOut != 50) {
		t.Errorf("developer usage %+v, want the two model calls' 350 in, 50 out", dev[0].Usage)
	}
	for _, role := range []task.Role{task.RolePlanner, task.RoleRefinement, task.RoleDeveloper, task.RoleReviewer} {
		if n := model.turnsOf(role); n != 1 {
			t.Errorf("model saw %d %s turns, want 1", n, role)
		}
	}
	// The read-only roles were offered no edit tool, the developer was.
	for _, r := range srv.ModelRequests(fakemodel.ChatPath) {
		c := classify(r)
		cr, _ := fakemodel.ParseChat(r.Body)
		edits := cr.HasTool("write") || cr.HasTool("edit") || cr.HasTool("write_file")
		if c.role != "" && edits != (c.role == task.RoleDeveloper) {
			t.Errorf("%s offered edit tools: %v (%v)", c.role, edits, cr.ToolNames())
		}
	}
}

func TestRealCLIPipelineOpencodeAllRoles(t *testing.T) {
	t.Parallel()
	allRoles(t, "opencode", "BOOF_OPENCODE_BIN")
}

func TestRealCLIPipelineQwenAllRoles(t *testing.T) {
	t.Parallel()
	allRoles(t, "qwen-code", "BOOF_QWEN_BIN")
}

// A used-up quota in the developer step pauses the tool until the reset
// the server named; after the reset the task goes on and is done.
func TestRealCLILimitOpencodePausesUntilTheReset(t *testing.T) {
	t.Parallel()
	bin := realBin(t, "BOOF_OPENCODE_BIN", "1.18.")
	srv := fakemodel.Start(t)
	reset := time.Now().Add(2 * time.Hour).Truncate(time.Second)
	limitScenario(t, "opencode", map[string]any{"opencode": openAISettings(t, bin, srv)}, fakemodel.ChatQuotaExhausted(reset), srv,
		func(time.Time) time.Time { return reset }, time.Minute, "")
}

func TestRealCLILimitQwenPausesUntilTheReset(t *testing.T) {
	t.Parallel()
	bin := realBin(t, "BOOF_QWEN_BIN", "0.24.")
	srv := fakemodel.Start(t)
	reset := time.Now().Add(2 * time.Hour).Truncate(time.Second)
	limitScenario(t, "qwen-code", map[string]any{"qwen-code": openAISettings(t, bin, srv)}, fakemodel.ChatQuotaExhausted(reset), srv,
		func(time.Time) time.Time { return reset }, 0, "")
}

// With limits.onLimit switch, the developer step that meets the CLI's
// usage limit goes on on the tool the adapter names (claude-code) in a
// fresh session whose prompt carries the handoff.
func switchScenario(t *testing.T, tool, env string) {
	bin := realBin(t, env, map[string]string{"opencode": "1.18.", "qwen-code": "0.24."}[tool])
	claudeBin := realBin(t, "BOOF_CLAUDE_BIN", "Claude Code")
	srv := fakemodel.Start(t)
	var model pipelineModel
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		switch {
		case c.role == task.RoleDeveloper && c.api == "claude":
			return developerReply(c)
		case c.role == task.RoleDeveloper:
			return fakemodel.ChatQuotaExhausted(time.Now().Add(3 * time.Hour))
		case c.role == task.RoleReviewer:
			return fakemodel.Reply{Text: "Done.\n\nVERDICT: APPROVE", InputTokens: 150, OutputTokens: 25}
		default:
			return planReply(c)
		}
	})
	role := map[string]any{"tool": tool, "model": "fake-model"}
	p := runPipelineWith(t, map[string]any{"planner": role, "refinement": role, "developer": role, "reviewer": role},
		map[string]any{tool: openAISettings(t, bin, srv), "claude-code": claudeSettings(t, claudeBin, srv, nil)},
		map[string]any{"limits": map[string]any{"onLimit": "switch"}})
	p.requireDone(t)
	handed := false
	for _, r := range srv.ModelRequests("/v1/messages") {
		if c := classify(r); c.role == task.RoleDeveloper && !c.toolResult {
			body := string(r.Body)
			handed = strings.Contains(body, "## Handoff") && strings.Contains(body, tool+" reached its usage limit") &&
				strings.Contains(body, "exceeded your usage quota")
		}
	}
	if !handed {
		t.Error("claude's developer prompt carries no handoff from " + tool)
	}
	var got []string
	for _, x := range p.executions(t, "") {
		got = append(got, string(x.Role)+":"+x.Tool+":"+string(x.Outcome))
	}
	want := "planner:" + tool + ":succeeded refinement:" + tool + ":succeeded developer:" + tool + ":limited developer:claude-code:succeeded reviewer:claude-code:succeeded"
	if strings.Join(got, " ") != want {
		t.Errorf("executions %s\nwant       %s", strings.Join(got, " "), want)
	}
	if files := gitRun(t, p.r.repo, "ls-tree", "--name-only", worktree.BranchName(p.tk.ID)); !strings.Contains(files, "greeting.txt") {
		t.Errorf("branch holds %q", files)
	}
}

func TestRealCLILimitOpencodeSwitchesWithAHandoff(t *testing.T) {
	t.Parallel()
	switchScenario(t, "opencode", "BOOF_OPENCODE_BIN")
}

func TestRealCLILimitQwenSwitchesWithAHandoff(t *testing.T) {
	t.Parallel()
	switchScenario(t, "qwen-code", "BOOF_QWEN_BIN")
}
