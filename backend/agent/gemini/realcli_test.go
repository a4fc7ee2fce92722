//go:build realcli

package gemini

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// The real-CLI suite runs the real gemini through this adapter and the
// PTY runner against the fake Gemini API:
//
//	BOOF_GEMINI_BIN=$(scripts/install-clis.sh DIR)/gemini go test -race -tags realcli ./backend/agent/gemini

// realBin returns $BOOF_GEMINI_BIN. It skips the test when it is unset
// and fails it when it is set but does not run.
func realBin(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("BOOF_GEMINI_BIN")
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("BOOF_GEMINI_BIN is not set (CI=true: the real gemini CLI suite must run)")
		}
		t.Skip("BOOF_GEMINI_BIN not set: skipping the real gemini CLI suite")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	// Even --version writes to the gemini config directory: a temporary one,
	// never the user's ~/.gemini.
	cmd.Env = append(os.Environ(), "GEMINI_CLI_HOME="+t.TempDir(), "GEMINI_CLI_NO_RELAUNCH=true")
	out, err := cmd.CombinedOutput()
	if err != nil || !versionRe().Match(out) {
		t.Fatalf("BOOF_GEMINI_BIN=%s is not a working gemini: %v %q", bin, err, out)
	}
	return bin
}

// realTool returns the gemini tool pointed at srv with an API key, whose
// user HOME (returned) holds a ~/.gemini of the user's own.
func realTool(t testing.TB, srv *fakemodel.Server) (*Tool, string) {
	t.Helper()
	bin := realBin(t)
	home := t.TempDir()
	g := filepath.Join(home, ".gemini")
	if err := os.MkdirAll(g, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(g, "settings.json"), []byte(`{"model":{"name":"gemini-2.5-pro"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	app := map[string]string{"HOME": home, "PATH": os.Getenv("PATH"), "GEMINI_API_KEY": "fake-gemini-key", "GOOGLE_GEMINI_BASE_URL": srv.URL()}
	return New(Options{Runner: testRunner, Path: bin, StateDir: t.TempDir(), Getenv: func(k string) string { return app[k] },
		Env: []string{"HOME=" + home}}), home
}

// recorder keeps a step's events and output.
type recorder struct {
	events []agent.Event
	output []byte
}

func (r *recorder) kinds() string {
	var b strings.Builder
	for _, e := range r.events {
		b.WriteString(string(e.Kind))
		if e.Tool != "" {
			b.WriteString(":" + e.Tool)
		}
		b.WriteString(",")
	}
	return b.String()
}

// step runs a real step to its end and returns its result.
func step(t *testing.T, tool *Tool, req agent.Request) (agent.Result, *recorder) {
	t.Helper()
	rec := &recorder{}
	req.OnEvent = func(e agent.Event) { rec.events = append(rec.events, e) }
	req.OnOutput = func(b []byte) { rec.output = append(rec.output, b...) }
	if req.Model == "" {
		req.Model = "gemini-2.5-flash"
	}
	if req.Grace == 0 {
		req.Grace = 2 * time.Second
	}
	run, err := tool.Start(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	res, err := run.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return res, rec
}

// gitRepo is an empty git repository.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	return dir
}

// gemReq decodes the i-th generate request the server got.
func gemReq(t *testing.T, srv *fakemodel.Server, i int) fakemodel.GeminiRequest {
	t.Helper()
	reqs := srv.GeminiGenerateRequests()
	if i >= len(reqs) {
		t.Fatalf("%d generate requests, want more than %d", len(reqs), i)
	}
	g, err := fakemodel.ParseGemini(reqs[i])
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// The real gemini writes a file through its own write_file tool, reports,
// names its session and usage; the role system prompt and the prompt
// reach the model verbatim, with the key; a second step resumes the
// session with its history. The user's ~/.gemini is never touched.
func TestRealWritesFileReportsAndResumes(t *testing.T) {
	srv := fakemodel.Start(t)
	tool, home := realTool(t, srv)
	before := snapshot(t, filepath.Join(home, ".gemini"))
	dir := gitRepo(t)
	srv.Enqueue(
		fakemodel.Reply{Text: "Writing it.", ToolCalls: []fakemodel.ToolCall{{Name: "write_file", Input: map[string]any{"file_path": "hello.txt", "content": "hello\n"}}},
			InputTokens: 40, OutputTokens: 6},
		fakemodel.Reply{Text: "Wrote hello.txt.\n\n## Questions for the user\n- Keep it?\n", InputTokens: 60, CacheReadTokens: 20, OutputTokens: 9},
	)
	system := "You are the \"developer\" role.\n-- a line that starts with dashes\n$HOME stays as written"
	prompt := "--yolo is not a flag here: create hello.txt."
	res, rec := step(t, tool, agent.Request{Role: task.RoleDeveloper, Prompt: prompt, SystemPrompt: system, Dir: dir,
		TranscriptPath: filepath.Join(t.TempDir(), "step.log"), IdleTimeout: 2 * time.Minute, MaxRuntime: 4 * time.Minute})
	if res.Failed() {
		t.Fatalf("result %+v\nevents %s\noutput %q", res, rec.kinds(), rec.output)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "hello.txt")); err != nil || string(b) != "hello\n" {
		t.Fatalf("hello.txt %q %v", b, err)
	}
	if res.Report != "Wrote hello.txt.\n\n## Questions for the user\n- Keep it?\n" || len(res.Questions) != 1 || res.Questions[0] != "Keep it?" {
		t.Fatalf("report %q questions %q", res.Report, res.Questions)
	}
	if res.Usage.InputTokens != 100 || res.Usage.CacheReadTokens != 20 || res.Usage.OutputTokens != 15 || !res.Usage.CostKnown {
		t.Fatalf("usage %+v", res.Usage)
	}
	if !sessionRe().MatchString(res.SessionID) || !strings.Contains(rec.kinds(), "tool_call:write_file,tool_result,") {
		t.Fatalf("session %q events %s", res.SessionID, rec.kinds())
	}
	if got := srv.GeminiGenerateRequests()[0].Header.Get("x-goog-api-key"); got != "fake-gemini-key" {
		t.Errorf("api key header %q", got)
	}
	first := gemReq(t, srv, 0)
	if !strings.Contains(first.SystemText(), system) || !strings.HasSuffix(first.UserText(), prompt) || first.Model != "gemini-2.5-flash" {
		t.Fatalf("system prompt or prompt did not reach the model verbatim:\n%s\nuser %q", first.SystemText(), first.UserText())
	}
	if !first.HasTool("write_file") || !first.HasTool("run_shell_command") {
		t.Errorf("a developer step is not offered the edit and shell tools")
	}

	srv.Enqueue(fakemodel.Reply{Text: "Kept it.", InputTokens: 200, OutputTokens: 4})
	res2, rec2 := step(t, tool, agent.Request{Role: task.RoleDeveloper, Prompt: "Keep it.", Dir: dir, ResumeSession: res.SessionID,
		IdleTimeout: 2 * time.Minute, MaxRuntime: 4 * time.Minute})
	if res2.Failed() || res2.SessionID != res.SessionID || res2.Report != "Kept it." || res2.Usage.InputTokens != 200 {
		t.Fatalf("resumed %+v\nevents %s\noutput %q", res2, rec2.kinds(), rec2.output)
	}
	last := gemReq(t, srv, len(srv.GeminiGenerateRequests())-1)
	if all := last.UserText(); !strings.Contains(all, prompt) || !strings.HasSuffix(all, "Keep it.") {
		t.Fatalf("the resumed request lacks the session's history: %q", all)
	}
	if after := snapshot(t, filepath.Join(home, ".gemini")); after != before {
		t.Errorf("the user's ~/.gemini changed:\n%s\nwas\n%s", after, before)
	}
}

// A read-only step is not offered gemini's edit tools (its policy engine
// drops them) but keeps the shell, so tests can run; a prompt past the
// argument limit reaches the model verbatim through stdin.
func TestRealReadOnlyAndLongPrompt(t *testing.T) {
	srv := fakemodel.Start(t)
	tool, _ := realTool(t, srv)
	srv.Enqueue(fakemodel.Reply{Text: "Looks fine.\n\nVERDICT: APPROVE"})
	prompt := strings.Repeat("Review every line. ", maxArgBytes/19+100) + "End of the prompt."
	res, rec := step(t, tool, agent.Request{Role: task.RoleReviewer, Prompt: prompt, Dir: gitRepo(t), ReadOnly: true,
		IdleTimeout: 2 * time.Minute, MaxRuntime: 4 * time.Minute})
	if res.Failed() || res.Report != "Looks fine.\n\nVERDICT: APPROVE" {
		t.Fatalf("result %+v\noutput %q", res, rec.output)
	}
	g := gemReq(t, srv, 0)
	if g.HasTool("write_file") || g.HasTool("replace") || !g.HasTool("run_shell_command") || !g.HasTool("read_file") {
		t.Errorf("read-only tools offered: write_file %v replace %v shell %v", g.HasTool("write_file"), g.HasTool("replace"), g.HasTool("run_shell_command"))
	}
	if !strings.HasSuffix(g.UserText(), prompt) {
		t.Errorf("the long prompt did not arrive verbatim (%d bytes sent, request user text %d bytes)", len(prompt), len(g.UserText()))
	}
}

// A quota the API refuses until a reset an hour away ends the step at
// once as a usage limit with that reset; a daily quota's reset is the
// next midnight Pacific.
func TestRealUsageLimit(t *testing.T) {
	srv := fakemodel.Start(t)
	tool, _ := realTool(t, srv)
	reset := time.Now().Add(time.Hour)
	srv.Enqueue(fakemodel.GeminiUsageLimit(reset), fakemodel.GeminiDailyQuota())
	res, rec := step(t, tool, agent.Request{Prompt: "go", Dir: gitRepo(t), IdleTimeout: 2 * time.Minute})
	if res.Limit == nil || res.Transient || res.ExitCode != exitQuota {
		t.Fatalf("result %+v\noutput %q", res, rec.output)
	}
	if d := res.Limit.ResetsAt.Sub(reset); d < -5*time.Second || d > 5*time.Second {
		t.Errorf("reset %s, want %s", res.Limit.ResetsAt, reset)
	}
	start := time.Now()
	res, _ = step(t, tool, agent.Request{Prompt: "go", Dir: gitRepo(t), IdleTimeout: 2 * time.Minute})
	if res.Limit == nil || res.Limit.Kind != "daily_quota" {
		t.Fatalf("daily quota: %+v", res)
	}
	if la := pacific(); la != nil && !res.Limit.ResetsAt.Equal(NextQuotaDay(start, la)) && !res.Limit.ResetsAt.Equal(NextQuotaDay(time.Now(), la)) {
		t.Errorf("daily reset %s", res.Limit.ResetsAt)
	}
	if n := len(srv.GeminiGenerateRequests()); n != 2 {
		t.Errorf("%d model requests: gemini retried a quota it should give up on", n)
	}
}

// Stopping a step whose gemini runs a shell command ends the whole
// process tree: gemini, its shell and the command.
func TestRealStopEndsTheProcessTree(t *testing.T) {
	srv := fakemodel.Start(t)
	tool, _ := realTool(t, srv)
	dir := gitRepo(t)
	marker := filepath.Join(t.TempDir(), "started")
	srv.Enqueue(fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{Name: "run_shell_command",
		Input: map[string]any{"command": "touch " + marker + " && sleep 300", "description": "wait"}}}})
	srv.SetDefault(fakemodel.Reply{Hang: true})
	run, err := tool.Start(context.Background(), agent.Request{Prompt: "go", Model: "gemini-2.5-flash", Dir: dir,
		Grace: 2 * time.Second, IdleTimeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			run.Stop(proc.ReasonStopped)
			t.Fatal("the shell command never started")
		}
		time.Sleep(200 * time.Millisecond)
	}
	pids := run.Pids()
	if len(pids) < 2 {
		t.Fatalf("step tree %v: want gemini and its shell", pids)
	}
	run.Stop(proc.ReasonStopped)
	res, _ := run.Wait()
	if res.StopReason != proc.ReasonStopped || res.Transient {
		t.Fatalf("result %+v", res)
	}
	for _, pid := range pids {
		if b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat")); err == nil && !strings.Contains(string(b), ") Z") {
			t.Errorf("process %d survived the stop: %s", pid, b)
		}
	}
}

// The health check of the real gemini: a smoke prompt answered is
// authenticated; a key the API refuses is not, and says why in one line.
func TestRealHealth(t *testing.T) {
	srv := fakemodel.Start(t)
	tool, _ := realTool(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	h := tool.Health(ctx, "gemini-2.5-flash")
	if !h.Installed || !h.Authenticated || !h.Reachable || h.Error != "" || h.Version != "0.61.0" {
		t.Fatalf("health %+v", h)
	}
	g := gemReq(t, srv, 0)
	if !strings.HasSuffix(g.UserText(), SmokePrompt) {
		t.Errorf("smoke prompt %q", g.UserText())
	}
	srv.SetDefault(fakemodel.Reply{Status: 400, ErrorType: "INVALID_ARGUMENT", ErrorMessage: "API key not valid. Please pass a valid API key."})
	h = tool.Health(ctx, "gemini-2.5-flash")
	if h.Authenticated || !h.Installed || !strings.Contains(h.Error, "API key not valid") || strings.Contains(h.Error, "\n") {
		t.Fatalf("health with a refused key %+v", h)
	}
	if entries, _ := os.ReadDir(filepath.Join(tool.opts.StateDir, "homes")); len(entries) != 0 {
		t.Errorf("the health check left config directories: %v", entries)
	}
}
