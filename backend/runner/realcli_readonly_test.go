//go:build realcli

package runner_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// strayCheck asserts the guarantee after a read-only role wrote file
// through its shell: the task is done, the file is on neither the task
// branch nor its leftovers, it is on the stray ref a stray_reverted event
// names, and the role's report says so.
func strayCheck(t *testing.T, p pipelineRun, role task.Role, file, content string) {
	t.Helper()
	p.requireDone(t)
	branch := worktree.BranchName(p.tk.ID)
	if files := gitRun(t, p.r.repo, "ls-tree", "-r", "--name-only", branch); strings.Contains(files, file) {
		t.Errorf("%s reached the task branch:\n%s", file, files)
	}
	left := worktree.LeftoversBranchName(p.tk.ID)
	if out := gitRun(t, p.r.repo, "branch", "--list", left); out != "" {
		if files := gitRun(t, p.r.repo, "ls-tree", "-r", "--name-only", left); strings.Contains(files, file) {
			t.Errorf("%s reached the leftovers:\n%s", file, files)
		}
	}
	evs, err := p.r.st.Events(context.Background(), p.tk.ID, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var st *task.StrayReverted
	for _, e := range evs {
		if s, ok := e.Data.(task.StrayReverted); ok && s.Role == role {
			st = &s
		}
	}
	if st == nil {
		t.Fatalf("no stray_reverted event for the %s\nlog:\n%s", role, p.r.logText(p.tk.ID))
	}
	if !strings.Contains(strings.Join(st.Files, ","), file) || len(st.Unreverted) != 0 {
		t.Errorf("stray event %+v", *st)
	}
	if got := gitRun(t, p.r.repo, "show", st.SHA+":"+file); got != content {
		t.Errorf("stray ref %s holds %s = %q, want %q", st.Ref, file, got, content)
	}
	if ref := gitRun(t, p.r.repo, "rev-parse", st.Ref); ref != st.SHA {
		t.Errorf("ref %s = %s, event says %s", st.Ref, ref, st.SHA)
	}
	kind := map[task.Role]task.SectionKind{task.RoleReviewer: task.SectionReviewerReport, task.RoleObserver: task.SectionObserverReport}[role]
	if secs := p.sections(t, kind); len(secs) == 0 || !strings.Contains(secs[0].Body, "is read-only but changed") {
		t.Errorf("%s report does not say so: %+v", role, secs)
	}
}

// The real claude as a read-only reviewer: it runs without its edit tools
// (the developer keeps them), and what it writes through Bash is saved on
// the stray ref and reverted.
func TestRealCLIReadOnlyClaudeReviewer(t *testing.T) {
	t.Parallel()
	bin := realBin(t, "BOOF_CLAUDE_BIN", "Claude Code")
	srv := fakemodel.Start(t)
	const fix = "echo reviewer-was-here > reviewer-fix.txt"
	var model pipelineModel
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		switch c.role {
		case task.RoleDeveloper:
			return developerReply(c)
		case task.RoleReviewer:
			if c.toolResult {
				return fakemodel.Reply{Text: "Fixed a typo myself.\n\nVERDICT: APPROVE"}
			}
			return fakemodel.Reply{Text: "Let me fix that.", ToolCalls: []fakemodel.ToolCall{{Name: "Bash",
				Input: map[string]any{"command": fix, "description": "fix it"}}}}
		default:
			return planReply(c)
		}
	})
	roles := map[string]any{"planner": claudeRole(), "refinement": claudeRole(), "developer": claudeRole(), "reviewer": claudeRole()}
	p := runPipeline(t, roles, map[string]any{"claude-code": claudeSettings(t, bin, srv, nil)})
	strayCheck(t, p, task.RoleReviewer, "reviewer-fix.txt", "reviewer-was-here")
	// The read-only steps deny only tools this claude has (planner and
	// refinement before its tools are known, the reviewer after the
	// developer's init line listed them): no step warns of a deny rule
	// matching no tool, and the data root keeps what was learnt.
	if log := p.r.logText(p.tk.ID); strings.Contains(log, "matches no known tool") {
		t.Errorf("a read-only step named a tool claude does not have:\n%s", log)
	}
	if b, err := os.ReadFile(filepath.Join(p.r.dir, "claude-code-state", "tools.json")); err != nil || !strings.Contains(string(b), `"Write"`) {
		t.Errorf("claude's tools were not kept in the data root: %s %v", b, err)
	}
	// claude offered the model no edit tool in the reviewer's turns, and
	// did in the developer's.
	for _, r := range srv.ModelRequests("/v1/messages") {
		c := classify(r)
		hasWrite := strings.Contains(string(r.Body), `"name":"Write"`) || strings.Contains(string(r.Body), `"name":"Edit"`)
		switch c.role {
		case task.RoleReviewer, task.RolePlanner, task.RoleRefinement:
			if hasWrite {
				t.Errorf("the %s was offered an edit tool", c.role)
			}
		case task.RoleDeveloper:
			if !hasWrite || !strings.Contains(string(r.Body), `"name":"Bash"`) {
				t.Errorf("the developer lacks its tools")
			}
		}
	}
}

// The real codex as a read-only observer (its mode there keeps full access
// so tests run): what it writes through exec_command is saved on the stray
// ref and reverted.
func TestRealCLIReadOnlyCodexObserver(t *testing.T) {
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
			if c.toolResult {
				return fakemodel.Reply{Text: "Tidied it.\n\nVERDICT: APPROVE"}
			}
			return fakemodel.Reply{Text: "Tidying.", ToolCalls: []fakemodel.ToolCall{fakemodel.ExecCommand("echo observer-was-here > observer-fix.txt")}}
		case task.RoleReviewer:
			return fakemodel.Reply{Text: "Fine.\n\nVERDICT: APPROVE"}
		default:
			return planReply(c)
		}
	})
	codexRole := map[string]any{"tool": "codex", "model": "gpt-6.2-sol"}
	roles := map[string]any{"planner": claudeRole(), "refinement": claudeRole(), "developer": claudeRole(),
		"observer": codexRole, "reviewer": claudeRole()}
	p := runPipeline(t, roles, map[string]any{"claude-code": claudeSettings(t, cl, srv, nil), "codex": codexSettings(t, cx, srv)})
	strayCheck(t, p, task.RoleObserver, "observer-fix.txt", "observer-was-here")
}

// The real codex as a read-only planner runs in its own read-only sandbox:
// the write it attempts fails inside codex, so nothing reaches the
// worktree and there is nothing to revert.
func TestRealCLIReadOnlyCodexPlannerSandboxed(t *testing.T) {
	t.Parallel()
	cl := realBin(t, "BOOF_CLAUDE_BIN", "Claude Code")
	cx := realBin(t, "BOOF_CODEX_BIN", "codex")
	srv := fakemodel.Start(t)
	var model pipelineModel
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		switch c.role {
		case task.RoleDeveloper:
			return developerReply(c)
		case task.RolePlanner:
			if c.toolResult {
				return planReply(c)
			}
			return fakemodel.Reply{Text: "Noting the plan.", ToolCalls: []fakemodel.ToolCall{fakemodel.ExecCommand("echo plan > planner-notes.txt; echo wrote=$?")}}
		case task.RoleReviewer:
			return fakemodel.Reply{Text: "Fine.\n\nVERDICT: APPROVE"}
		default:
			return planReply(c)
		}
	})
	codexRole := map[string]any{"tool": "codex", "model": "gpt-6.2-sol"}
	tools := codexSettings(t, cx, srv)
	// codex refuses to set its sandbox up under the temp dir; its home is
	// there in tests, so it is told the temp dir is elsewhere.
	tools["env"].(map[string]string)["TMPDIR"] = t.TempDir() + "/elsewhere"
	roles := map[string]any{"planner": codexRole, "refinement": claudeRole(), "developer": claudeRole(), "reviewer": claudeRole()}
	p := runPipeline(t, roles, map[string]any{"claude-code": claudeSettings(t, cl, srv, nil), "codex": tools})
	p.requireDone(t)
	evs, _ := p.r.st.Events(context.Background(), p.tk.ID, time.Time{})
	for _, e := range evs {
		if s, ok := e.Data.(task.StrayReverted); ok {
			t.Errorf("stray event %+v: the sandbox should have blocked the write", s)
		}
	}
	if files := gitRun(t, p.r.repo, "ls-tree", "-r", "--name-only", worktree.BranchName(p.tk.ID)); strings.Contains(files, "planner-notes") {
		t.Errorf("the planner's file reached the branch")
	}
	seen := false
	for _, r := range srv.ModelRequests("/v1/responses") {
		if c := classify(r); c.role == task.RolePlanner && c.toolResult {
			body := string(r.Body)
			seen = true
			if !strings.Contains(body, "wrote=") || strings.Contains(body, "wrote=0") {
				i := strings.Index(body, "planner-notes")
				t.Errorf("the planner's write was not refused by the sandbox: %.400q", body[max(0, i):])
			}
		}
	}
	if !seen {
		t.Error("the planner's tool call was never answered")
	}
}
