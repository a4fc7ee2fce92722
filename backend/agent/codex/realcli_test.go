//go:build realcli

package codex

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// The real-CLI suite runs the real codex through this adapter and the PTY
// runner against the fake Responses server:
//
//	BOOF_CODEX_BIN=$(scripts/install-clis.sh DIR)/codex go test -race -tags realcli ./backend/agent/codex

// realBin returns $BOOF_CODEX_BIN. It skips the test when it is unset and
// fails it when it is set but does not run.
func realBin(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("BOOF_CODEX_BIN")
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("BOOF_CODEX_BIN is not set (CI=true: the real codex CLI suite must run)")
		}
		t.Skip("BOOF_CODEX_BIN not set: skipping the real codex CLI suite")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "codex") {
		t.Fatalf("BOOF_CODEX_BIN=%s is not a working codex: %v %q", bin, err, out)
	}
	return bin
}

// realTool returns the codex tool pointed at srvURL with a temp HOME and
// CODEX_HOME; withKey sets the provider's key variable.
func realTool(t testing.TB, srvURL string, withKey bool, overrides ...string) *Tool {
	t.Helper()
	bin := realBin(t)
	_, env := codexHome(t)
	if withKey {
		env = append(env, "FAKE_KEY=sk-fake-key")
	}
	c := New(Options{
		Runner:          newRunner(t),
		Path:            bin,
		Env:             env,
		ConfigOverrides: append(fakeProvider(srvURL), overrides...),
		Getenv:          func(string) string { return "" },
		TempDir:         t.TempDir(),
	})
	return c
}

// startStep starts a real step and fails the test on error.
func startStep(t *testing.T, c *Tool, req agent.Request) (agent.Run, *recorder) {
	t.Helper()
	rec := &recorder{}
	req.OnEvent, req.OnOutput = rec.event, rec.chunk
	if req.Model == "" {
		req.Model = "gpt-6.2-sol"
	}
	run, err := c.Start(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return run, rec
}

func TestRealWritesFileReportsAndResumes(t *testing.T) {
	srv := fakemodel.Start(t)
	c := realTool(t, srv.URL(), true)
	dir := gitRepo(t)
	srv.Enqueue(
		fakemodel.Reply{Text: "Writing it.", ToolCalls: []fakemodel.ToolCall{fakemodel.ExecCommand("printf 'hello\\n' > hello.txt")}, InputTokens: 40, OutputTokens: 6},
		fakemodel.Reply{Text: "Wrote hello.txt.\n\n## Questions for the user\n- Keep it?\n", InputTokens: 60, CacheReadTokens: 20, OutputTokens: 9},
	)
	system := "You are the \"developer\" role.\nLine two: = [not toml] \\ end"
	run, rec := startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: "Create hello.txt.", SystemPrompt: system, Dir: dir,
		TranscriptPath: filepath.Join(t.TempDir(), "step.log"), IdleTimeout: time.Minute, MaxRuntime: 2 * time.Minute})
	res, err := run.Wait()
	if err != nil || res.Failed() {
		t.Fatalf("result %+v %v\nevents %s\noutput %q", res, err, rec.kinds(), rec.output)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "hello.txt")); err != nil || string(b) != "hello\n" {
		t.Fatalf("hello.txt %q %v", b, err)
	}
	if res.Report != "Wrote hello.txt.\n\n## Questions for the user\n- Keep it?\n" || len(res.Questions) != 1 || res.Questions[0] != "Keep it?" {
		t.Fatalf("report %q questions %q", res.Report, res.Questions)
	}
	if want := (agent.Usage{InputTokens: 100, CacheReadTokens: 20, OutputTokens: 15}); res.Usage != want {
		t.Fatalf("usage %+v, want %+v", res.Usage, want)
	}
	if res.SessionID == "" || !strings.Contains(rec.kinds(), "session,") || !strings.Contains(rec.kinds(), "tool_call:exec_command,tool_result:exec_command,") {
		t.Fatalf("session %q events %s", res.SessionID, rec.kinds())
	}
	reqs := srv.ModelRequests("/v1/responses")
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer sk-fake-key" {
		t.Fatalf("authorization %q", got)
	}
	first, err := fakemodel.ParseResponses(reqs[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(first.MessagesText("developer"), system) || first.LastUserText() != "Create hello.txt." || first.Model != "gpt-6.2-sol" {
		t.Fatalf("system prompt or prompt did not reach the server verbatim:\n%s\nuser %q", first.MessagesText("developer"), first.LastUserText())
	}

	// Resume the thread in the same directory: usage is this run's only.
	srv.Enqueue(fakemodel.Reply{Text: "Kept it.", InputTokens: 200, CacheReadTokens: 100, OutputTokens: 4})
	run, _ = startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: "Yes, keep it.", Dir: dir, ResumeSession: res.SessionID,
		MaxRuntime: 2 * time.Minute})
	res2, err := run.Wait()
	if err != nil || res2.Failed() || res2.Report != "Kept it." || res2.SessionID != res.SessionID {
		t.Fatalf("resumed %+v %v", res2, err)
	}
	if want := (agent.Usage{InputTokens: 200, CacheReadTokens: 100, OutputTokens: 4}); res2.Usage != want {
		t.Fatalf("resumed usage %+v, want %+v", res2.Usage, want)
	}
	reqs = srv.ModelRequests("/v1/responses")
	last, _ := fakemodel.ParseResponses(reqs[len(reqs)-1].Body)
	if last.LastUserText() != "Yes, keep it." || !strings.Contains(last.MessagesText("user"), "Create hello.txt.") {
		t.Fatalf("resumed request lacks the history: %q", last.MessagesText("user"))
	}
}

func TestRealLongPromptThroughStdin(t *testing.T) {
	srv := fakemodel.Start(t)
	c := realTool(t, srv.URL(), true)
	prompt := "Summarise this.\n" + strings.Repeat("a line of a long plan ✓\n", 8000) // ~200 KB
	run, _ := startStep(t, c, agent.Request{Prompt: prompt, Dir: gitRepo(t), MaxRuntime: 2 * time.Minute})
	res, err := run.Wait()
	if err != nil || res.Failed() {
		t.Fatalf("result %+v %v", res, err)
	}
	rr, err := fakemodel.ParseResponses(srv.ModelRequests("/v1/responses")[0].Body)
	if err != nil || !strings.Contains(rr.LastUserText(), strings.TrimSuffix(prompt, "\n")) {
		t.Fatalf("long prompt did not arrive: %d bytes of user text, %v", len(rr.LastUserText()), err)
	}
}

func TestRealServerErrorIsTransient(t *testing.T) {
	srv := fakemodel.Start(t)
	srv.SetDefault(fakemodel.Reply{Status: 503})
	c := realTool(t, srv.URL(), true, "model_providers.fake.stream_max_retries=0")
	run, rec := startStep(t, c, agent.Request{Prompt: "Do it.", Dir: gitRepo(t), MaxRuntime: 2 * time.Minute})
	res, err := run.Wait()
	if err != nil || !res.Failed() || !res.Transient || res.StopReason != proc.ReasonNone || !strings.Contains(res.ErrorText, "unexpected status 503") {
		t.Fatalf("result %+v %v events %s", res, err, rec.kinds())
	}
}

func TestRealAuthErrorIsNotTransient(t *testing.T) {
	srv := fakemodel.Start(t)
	c := realTool(t, srv.URL(), false)
	run, _ := startStep(t, c, agent.Request{Prompt: "Do it.", Dir: gitRepo(t), MaxRuntime: 2 * time.Minute})
	res, err := run.Wait()
	if err != nil || !res.Failed() || res.Transient || !strings.Contains(res.ErrorText, "FAKE_KEY") {
		t.Fatalf("result %+v %v", res, err)
	}
}

func TestRealStopMidRunLeavesNoProcess(t *testing.T) {
	srv := fakemodel.Start(t)
	// The model starts a long command that keeps running, then hangs.
	srv.Enqueue(fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{Name: "exec_command", Input: map[string]any{"cmd": "sleep 600", "yield_time_ms": 500}}}})
	srv.SetDefault(fakemodel.Reply{Hang: true})
	c := realTool(t, srv.URL(), true)
	dir := gitRepo(t)
	run, _ := startStep(t, c, agent.Request{Prompt: "Wait.", Dir: dir, Grace: 2 * time.Second, MaxRuntime: 2 * time.Minute})
	deadline := time.Now().Add(60 * time.Second)
	for len(srv.ModelRequests("/v1/responses")) < 2 || len(inDir(dir)) < 2 {
		if time.Now().After(deadline) {
			run.Stop(proc.ReasonStopped)
			t.Fatalf("codex never reached the hanging request with its command running: %d requests, procs %v",
				len(srv.ModelRequests("/v1/responses")), inDir(dir))
		}
		time.Sleep(50 * time.Millisecond)
	}
	pids := run.Pids()
	run.Stop(proc.ReasonStopped)
	res, err := run.Wait()
	if err != nil || res.StopReason != proc.ReasonStopped || res.Transient || !res.Failed() {
		t.Fatalf("result %+v %v", res, err)
	}
	if left := inDir(dir); len(left) != 0 {
		t.Fatalf("processes survived the stop (tree was %v): %v", pids, left)
	}
}

func TestRealDeadServerEndedByWatchdog(t *testing.T) {
	for _, tc := range []struct {
		name      string
		req       agent.Request
		reason    proc.Reason
		transient bool
	}{
		{"idle", agent.Request{IdleTimeout: 3 * time.Second, MaxRuntime: time.Minute}, proc.ReasonStalled, true},
		{"deadline", agent.Request{IdleTimeout: time.Minute, MaxRuntime: 4 * time.Second}, proc.ReasonTimeout, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := realTool(t, "http://127.0.0.1:9", true)
			dir := gitRepo(t)
			tc.req.Prompt, tc.req.Dir, tc.req.Grace = "Do it.", dir, 2*time.Second
			run, rec := startStep(t, c, tc.req)
			res, err := run.Wait()
			if err != nil || res.StopReason != tc.reason || res.Transient != tc.transient {
				t.Fatalf("result %+v %v events %s", res, err, rec.kinds())
			}
			if left := inDir(dir); len(left) != 0 {
				t.Fatalf("processes survived: %v", left)
			}
		})
	}
}

func TestRealHealth(t *testing.T) {
	srv := fakemodel.Start(t)
	check := func(t *testing.T, c *Tool) agent.Health {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		return c.Health(ctx, "gpt-6.2-sol")
	}
	t.Run("healthy", func(t *testing.T) {
		h := check(t, realTool(t, srv.URL(), true))
		if !h.Installed || !h.Authenticated || !h.Reachable || h.Version != "0.171.0" || h.Error != "" {
			t.Fatalf("health %+v", h)
		}
	})
	t.Run("no key", func(t *testing.T) {
		h := check(t, realTool(t, srv.URL(), false))
		if !h.Installed || h.Authenticated || !strings.Contains(h.Error, "FAKE_KEY") {
			t.Fatalf("health %+v", h)
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		h := check(t, realTool(t, "http://127.0.0.1:9", true))
		if !h.Installed || h.Authenticated || h.Reachable || h.Error == "" {
			t.Fatalf("health %+v", h)
		}
	})
	t.Run("not installed", func(t *testing.T) {
		realBin(t)
		c := New(Options{Runner: newRunner(t), Env: []string{"PATH="}, Getenv: func(string) string { return "" }, TempDir: t.TempDir()})
		if h := check(t, c); h.Installed || h.Error == "" {
			t.Fatalf("health %+v", h)
		}
	})
}

// inDir lists the live (non-zombie) processes whose working directory is
// dir or below it, by scanning /proc.
func inDir(dir string) []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err != nil || (cwd != dir && !strings.HasPrefix(cwd, dir+"/")) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i:]), ") Z") {
			continue
		}
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out = append(out, e.Name()+":"+strings.ReplaceAll(string(cmd), "\x00", " "))
	}
	return out
}

func TestRealModels(t *testing.T) {
	srv := fakemodel.Start(t)
	c := realTool(t, srv.URL(), true)
	ms := c.Models(context.Background())
	if len(ms) == 0 || ms[0].Source != agent.ModelSourceTool || ms[0].ID != "gpt-6.2-sol" {
		t.Fatalf("models %+v", ms)
	}
}
