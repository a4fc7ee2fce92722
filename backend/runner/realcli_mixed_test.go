//go:build realcli

package runner_test

import (
	"sync"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/task"
)

// One task across three real CLIs, as users mix them: gemini plans and
// refines, opencode develops (committing through its own shell tool),
// qwen reviews. Each step runs on its own tool with its own session and
// usage, each CLI's requests reach the fake on its own API, and the task
// is done with the developer's commit.
func TestRealCLIPipelineMixedGeminiOpencodeQwen(t *testing.T) {
	t.Parallel()
	gem := geminiBin(t)
	oc := realBin(t, "BOOF_OPENCODE_BIN", "1.18.")
	qw := realBin(t, "BOOF_QWEN_BIN", "0.24.")
	srv := fakemodel.Start(t)
	var model pipelineModel
	var mu sync.Mutex
	apis := map[task.Role]map[string]bool{}
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		mu.Lock()
		if c.role != "" {
			if apis[c.role] == nil {
				apis[c.role] = map[string]bool{}
			}
			apis[c.role][c.api] = true
		}
		mu.Unlock()
		switch c.role {
		case task.RoleDeveloper:
			return chatDeveloperReply(c)
		case task.RoleReviewer:
			return fakemodel.Reply{Text: "The greeting is there and committed.\n\nVERDICT: APPROVE", InputTokens: 150, OutputTokens: 25}
		default:
			return planReply(c)
		}
	})
	gcfg, _ := geminiSettings(t, gem, srv)
	roles := map[string]any{
		"planner": geminiRole(), "refinement": geminiRole(),
		"developer": map[string]any{"tool": "opencode", "model": "fake-model"},
		"reviewer":  map[string]any{"tool": "qwen-code", "model": "fake-model"},
	}
	p := runPipeline(t, roles, map[string]any{"gemini": gcfg, "opencode": openAISettings(t, oc, srv), "qwen-code": openAISettings(t, qw, srv)})
	p.requireDone(t)

	if secs := p.sections(t, task.SectionDeveloperReport); len(secs) != 1 || secs[0].Body != "Added greeting.txt and committed it." {
		t.Errorf("developer report %+v", secs)
	}
	if rev := p.sections(t, task.SectionReviewerReport); len(rev) != 1 || rev[0].Verdict != string(task.VerdictApprove) {
		t.Errorf("reviewer sections %+v", rev)
	}
	want := map[task.Role]string{task.RolePlanner: "gemini", task.RoleRefinement: "gemini", task.RoleDeveloper: "opencode", task.RoleReviewer: "qwen-code"}
	xs := p.executions(t, "")
	if len(xs) != 4 {
		t.Errorf("%d executions, want planner, refinement, developer, reviewer", len(xs))
	}
	sessions := map[string]bool{}
	for _, x := range xs {
		if x.Tool != want[x.Role] || x.Outcome != task.OutcomeSucceeded || x.Usage.TokensIn <= 0 || x.SessionID == "" {
			t.Errorf("execution %s: tool %s (want %s) outcome %s usage %+v session %q", x.Role, x.Tool, want[x.Role], x.Outcome, x.Usage, x.SessionID)
		}
		sessions[x.SessionID] = true
	}
	if len(sessions) != len(xs) {
		t.Errorf("steps shared a session: %d sessions for %d steps", len(sessions), len(xs))
	}
	// What each role's CLI sent reached the fake on that CLI's API.
	mu.Lock()
	defer mu.Unlock()
	wantAPI := map[task.Role]string{task.RolePlanner: "gemini", task.RoleRefinement: "gemini", task.RoleDeveloper: "opencode", task.RoleReviewer: "qwen"}
	for role, api := range wantAPI {
		if got := apis[role]; len(got) != 1 || !got[api] {
			t.Errorf("%s's requests came on %v, want only %s", role, got, api)
		}
	}
}
