//go:build realcli

package runner_test

// The real Gemini CLI through the runner host against the fake Gemini API:
// every role, a usage limit paused until its reset and resumed after, and
// a switch to the mock (and from it) with the handoff in the new tool's
// prompt.
//
//	BOOF_GEMINI_BIN=~/.cache/boof-runner/clis/node_modules/.bin/gemini \
//	go test -race -tags realcli -run RealCLI.*Gemini -count=1 ./backend/runner/

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/task"
)

// geminiBin returns $BOOF_GEMINI_BIN after checking that its --version
// prints 0.61 (in a temporary config directory: even --version writes to
// gemini's, and the user's ~/.gemini is never to change); it skips the
// test when the variable is unset.
func geminiBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("BOOF_GEMINI_BIN")
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("BOOF_GEMINI_BIN is not set (CI=true: the real-CLI suite must run)")
		}
		t.Skip("BOOF_GEMINI_BIN is not set; install the CLIs with scripts/install-clis.sh DIR and point it at DIR/node_modules/.bin/gemini")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = append(os.Environ(), "GEMINI_CLI_HOME="+t.TempDir(), "GEMINI_CLI_NO_RELAUNCH=true")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "0.61") {
		t.Fatalf("BOOF_GEMINI_BIN=%s is unusable: %v %q", bin, err, out)
	}
	return bin
}

// sideReply answers a request of a CLI that belongs to no pipeline role:
// gemini's model router (run for its default model, "auto", which a
// switched step runs with) asks for a JSON classification of the request,
// in one of two shapes; this answer fits both. Anything else gets "ok".
func sideReply(r fakemodel.Request) fakemodel.Reply {
	if g, err := fakemodel.ParseGemini(r); err == nil && (strings.Contains(g.SystemText(), "model_choice") ||
		strings.Contains(g.SystemText(), "complexity_score")) {
		return fakemodel.Reply{Text: `{"reasoning": "A small, clear edit.", "model_choice": "flash", ` +
			`"complexity_reasoning": "A small, clear edit.", "complexity_score": 10}`}
	}
	return fakemodel.Reply{Text: "ok"}
}

// geminiSettings is settings.tools.gemini pointing the real gemini at srv
// with an API key, as a user would set it; home is the user's HOME, with
// a ~/.gemini of their own that no step may change.
func geminiSettings(t *testing.T, bin string, srv *fakemodel.Server) (cfg map[string]any, home string) {
	t.Helper()
	home = t.TempDir()
	g := filepath.Join(home, ".gemini")
	if err := os.MkdirAll(g, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(g, "settings.json"), []byte(`{"general":{"vimMode":true}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]any{"path": bin, "env": map[string]string{
		"HOME": home, "GEMINI_API_KEY": "fake-gemini-key", "GOOGLE_GEMINI_BASE_URL": srv.URL()}}, home
}

func geminiRole() map[string]any {
	return map[string]any{"tool": "gemini", "model": "gemini-2.5-flash"}
}

// treeSum is every file under dir with its modification time and content
// hash: equal sums mean nothing there changed.
func treeSum(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %x\n", p, info.ModTime().UnixNano(), sha256.Sum256(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Gemini as planner, refinement, developer and reviewer: the developer
// commits through gemini's shell tool, every step has its own gemini
// session and its usage, the steps share the task's config directory in
// the data root, and the user's ~/.gemini is left as it was.
func TestRealCLIPipelineGeminiAllRoles(t *testing.T) {
	t.Parallel()
	bin := geminiBin(t)
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
	cfg, home := geminiSettings(t, bin, srv)
	before := treeSum(t, filepath.Join(home, ".gemini"))
	roles := map[string]any{"planner": geminiRole(), "refinement": geminiRole(), "developer": geminiRole(), "reviewer": geminiRole()}
	p := runPipeline(t, roles, map[string]any{"gemini": cfg})
	p.requireDone(t)

	if secs := p.sections(t, task.SectionFinalPlan); len(secs) != 1 || !strings.Contains(secs[0].Body, "Plan (refinement)") {
		t.Errorf("final plan %+v", secs)
	}
	if secs := p.sections(t, task.SectionDeveloperReport); len(secs) != 1 || secs[0].Body != "Added greeting.txt and committed it." {
		t.Errorf("developer report %+v", secs)
	}
	if rev := p.sections(t, task.SectionReviewerReport); len(rev) != 1 || rev[0].Verdict != string(task.VerdictApprove) {
		t.Errorf("reviewer sections %+v", rev)
	}
	xs := p.executions(t, "")
	if len(xs) != 4 {
		t.Errorf("%d executions, want planner, refinement, developer, reviewer", len(xs))
	}
	for _, x := range xs {
		if x.Tool != "gemini" || x.Model != "gemini-2.5-flash" || x.Outcome != task.OutcomeSucceeded || x.Usage.TokensIn <= 0 || x.Usage.CostUSD <= 0 {
			t.Errorf("execution %s: tool %s model %s outcome %s usage %+v", x.Role, x.Tool, x.Model, x.Outcome, x.Usage)
		}
	}
	seen := map[string]bool{}
	for _, id := range p.requireSessions(t) {
		seen[id] = true
	}
	if len(seen) != 4 {
		t.Errorf("want 4 distinct gemini sessions, got %v", seen)
	}
	for _, role := range []task.Role{task.RolePlanner, task.RoleRefinement, task.RoleDeveloper, task.RoleReviewer} {
		if n := model.turnsOf(role); n != 1 {
			t.Errorf("model saw %d %s turns, want 1", n, role)
		}
	}
	// Only the developer is offered gemini's edit tools.
	for _, r := range srv.GeminiGenerateRequests() {
		c := classify(r)
		g, _ := fakemodel.ParseGemini(r)
		if c.role != "" && g.HasTool("write_file") != (c.role == task.RoleDeveloper) {
			t.Errorf("%s offered write_file: %v", c.role, g.HasTool("write_file"))
		}
	}
	homes, _ := os.ReadDir(filepath.Join(p.r.dir, "gemini-state", "homes"))
	if len(homes) != 1 {
		t.Errorf("config directories in the data root: %v, want the task's one", homes)
	}
	if after := treeSum(t, filepath.Join(home, ".gemini")); after != before {
		t.Errorf("the user's ~/.gemini changed:\n%s\nwas\n%s", after, before)
	}
}

// The real gemini refused by a quota until a reset two hours away: gemini
// paused until that reset (to the second it named), the task back to
// pending at the developer, resumed after the reset and done.
func TestRealCLILimitGeminiPausesUntilTheReset(t *testing.T) {
	t.Parallel()
	bin := geminiBin(t)
	srv := fakemodel.Start(t)
	reset := time.Now().Add(2 * time.Hour)
	cfg, _ := geminiSettings(t, bin, srv)
	// With a model named: gemini's router (the default "auto") would make
	// a call of its own before the refused one, which the step is charged.
	limitScenarioRole(t, geminiRole(), map[string]any{"gemini": cfg}, fakemodel.GeminiUsageLimit(reset), srv,
		func(time.Time) time.Time { return reset }, 5*time.Second, "")
}

// With limits.onLimit switch and the order gemini, mock: the real gemini
// meeting its quota in the developer step hands the step to the mock,
// which starts fresh with the handoff in the prompt it received; the
// reviewer runs on the mock too (gemini is paused) and the task is done.
func TestRealCLILimitGeminiSwitchesToTheMockWithAHandoff(t *testing.T) {
	t.Parallel()
	bin := geminiBin(t)
	srv := fakemodel.Start(t)
	var model pipelineModel
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		if c.role == task.RoleDeveloper {
			return fakemodel.GeminiUsageLimit(time.Now().Add(3 * time.Hour))
		}
		return planReply(c)
	})
	cfg, _ := geminiSettings(t, bin, srv)
	p := runPipelineWith(t, map[string]any{"planner": geminiRole(), "refinement": geminiRole(), "developer": geminiRole(), "reviewer": geminiRole()},
		map[string]any{"gemini": cfg}, map[string]any{"limits": map[string]any{"onLimit": "switch", "switchOrder": []string{"gemini", "mock"}}})
	if p.tk.Status != task.StatusDone {
		t.Fatalf("task %s %q\nlog:\n%s", p.tk.Status, p.tk.Error, p.r.logText(p.tk.ID))
	}
	var tools []string
	for _, x := range p.executions(t, "") {
		tools = append(tools, string(x.Role)+":"+x.Tool+":"+string(x.Outcome))
	}
	if got := strings.Join(tools, " "); got != "planner:gemini:succeeded refinement:gemini:succeeded developer:gemini:limited developer:mock:succeeded reviewer:mock:succeeded" {
		t.Errorf("executions %s", got)
	}
	got, err := mock.ReadReceived(filepath.Join(p.r.dir, "mock-state"))
	if err != nil {
		t.Fatal(err)
	}
	var dev string
	for _, r := range got {
		if r.Role == task.RoleDeveloper {
			dev = r.Prompt
		}
	}
	for _, want := range []string{"## Handoff", "gemini reached its usage limit", "Suggested retry after", "Plan (refinement)"} {
		if !strings.Contains(dev, want) {
			t.Errorf("the mock's developer prompt lacks %q:\n%s", want, dev)
		}
	}
	if !strings.Contains(p.r.logText(p.tk.ID), "gemini hit its usage limit; continuing on mock with a handoff") {
		t.Errorf("log:\n%s", p.r.logText(p.tk.ID))
	}
}

// The other way: the mock meets its usage limit in the developer step and
// the order mock, gemini hands the step to the real gemini, whose request
// carries the handoff (read on the fake's request log); gemini commits
// the work and reviews it.
func TestRealCLILimitMockSwitchesToGeminiWithAHandoff(t *testing.T) {
	t.Parallel()
	bin := geminiBin(t)
	srv := fakemodel.Start(t)
	var model pipelineModel
	model.serve(t, srv, func(c modelCall) fakemodel.Reply {
		switch c.role {
		case task.RoleDeveloper:
			return developerReply(c)
		case task.RoleReviewer:
			return fakemodel.Reply{Text: "Done.\n\nVERDICT: APPROVE", InputTokens: 150, OutputTokens: 25}
		}
		return planReply(c)
	})
	cfg, _ := geminiSettings(t, bin, srv)
	mockRole := map[string]any{"tool": "mock"}
	set := map[string]any{
		"roles":   map[string]any{"planner": mockRole, "refinement": mockRole, "developer": mockRole, "reviewer": mockRole},
		"tools":   map[string]any{"gemini": cfg},
		"limits":  map[string]any{"onLimit": "switch", "switchOrder": []string{"mock", "gemini"}},
		"retries": map[string]any{"idleTimeoutMs": 120000, "backoffMs": []int{10}},
		"stop":    map[string]any{"graceMs": 2000},
	}
	r := newRoot(t, set)
	tk := r.add("Create greeting.txt containing hello and commit it.\n[[mock-limit developer=1]]", 1)
	limitRun(t, r, &clock{t: time.Now()})
	if got := r.get(tk.ID); got.Status != task.StatusDone {
		t.Fatalf("task %s %q\nlog:\n%s", got.Status, got.Error, r.logText(tk.ID))
	}
	var handed bool
	for _, req := range srv.GeminiGenerateRequests() {
		if c := classify(req); c.role == task.RoleDeveloper && !c.toolResult {
			g, _ := fakemodel.ParseGemini(req)
			user := g.UserText()
			handed = strings.Contains(user, "## Handoff") && strings.Contains(user, "mock reached its usage limit") &&
				strings.Contains(user, "You've hit your usage limit (mock)")
		}
	}
	if !handed {
		t.Error("gemini's developer request carries no handoff from the mock")
	}
	var tools []string
	for _, x := range r.execs(tk.ID) {
		tools = append(tools, string(x.Role)+":"+x.Tool+":"+string(x.Outcome))
	}
	if got := strings.Join(tools, " "); got != "planner:mock:succeeded refinement:mock:succeeded developer:mock:limited developer:gemini:succeeded reviewer:gemini:succeeded" {
		t.Errorf("executions %s", got)
	}
	if files := gitRun(t, r.repo, "ls-tree", "--name-only", r.get(tk.ID).Branch); !strings.Contains(files, "greeting.txt") {
		t.Errorf("branch holds %q", files)
	}
}
