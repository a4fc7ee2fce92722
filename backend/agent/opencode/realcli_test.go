//go:build realcli

package opencode

// The real-CLI suite runs the real opencode through this adapter and the
// PTY runner against the fake chat-completions server:
//
//	BOOF_OPENCODE_BIN=$(scripts/install-clis.sh DIR)/opencode go test -race -tags realcli ./backend/agent/opencode

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/agent/openaicli/clitest"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// realTool returns the opencode tool pointed at srvURL as its endpoint,
// with a temp HOME holding a ~/.config/opencode of the user's (a provider
// "userprov" on the same server, its key written in the file) that no run
// may change.
func realTool(t testing.TB, srvURL string) (*Tool, string) {
	t.Helper()
	bin := clitest.RealBin(t, "BOOF_OPENCODE_BIN", "opencode", "1.18", 2*time.Minute)
	home := t.TempDir()
	cfg := filepath.Join(home, ".config", "opencode")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	user := `{"provider": {"userprov": {"npm": "@ai-sdk/openai-compatible", "options": {"baseURL": "` + srvURL + `/v1", "apiKey": "sk-user-own-key"},
  "models": {"user-model": {"name": "user-model"}}}}}` + "\n"
	if err := os.WriteFile(filepath.Join(cfg, "opencode.json"), []byte(user), 0o600); err != nil {
		t.Fatal(err)
	}
	before := clitest.TreeState(t, cfg)
	t.Cleanup(func() {
		if after := clitest.TreeState(t, cfg); after != before {
			t.Errorf("the user's ~/.config/opencode changed:\nbefore\n%s\nafter\n%s", before, after)
		}
	})
	env := []string{"HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin", "OPENAI_BASE_URL=" + srvURL + "/v1",
		"OPENAI_API_KEY=sk-fake-opencode-key", "OPENAI_MODEL=fake-model"}
	return New(Options{Path: bin, Runner: clitest.Runner(t), Env: env, LookupEnv: clitest.NoEnv, TempDir: t.TempDir()}), home
}

// startStep starts a real step and fails the test on error; quiet is the
// silence after a refused model call that makes a limit (0 = the default).
func startStep(t *testing.T, c *Tool, req agent.Request, quiet time.Duration) (agent.Run, *clitest.Recorder) {
	t.Helper()
	rec := &clitest.Recorder{}
	req.OnEvent, req.OnOutput = rec.Event, rec.Chunk
	if req.Grace == 0 {
		req.Grace = 2 * time.Second
	}
	if req.MaxRuntime == 0 {
		req.MaxRuntime = 10 * time.Minute
	}
	if quiet == 0 {
		quiet = limitQuiet
	}
	run, err := c.start(context.Background(), req, quiet)
	if err != nil {
		t.Fatal(err)
	}
	return run, rec
}

func TestRealWritesFileReportsAndResumes(t *testing.T) {
	t.Parallel()
	srv := fakemodel.Start(t)
	c, _ := realTool(t, srv.URL())
	dir := clitest.GitRepo(t)
	srv.Enqueue(
		fakemodel.Reply{Text: "Writing it.", ToolCalls: []fakemodel.ToolCall{{Name: "write",
			Input: map[string]any{"filePath": filepath.Join(dir, "hello.txt"), "content": "hello\n"}}}, InputTokens: 40, OutputTokens: 6},
		fakemodel.Reply{Text: "Wrote hello.txt.\n\n## Questions for the user\n- Keep it?\n", InputTokens: 60, OutputTokens: 9},
	)
	const prompt = "-Create \"hello.txt\" -- verbatim.\nSecond line ✓"
	system := "You are the \"developer\" role.\nSecond line of the role."
	run, rec := startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: prompt, SystemPrompt: system, Model: "fake-model", Dir: dir,
		TranscriptPath: filepath.Join(t.TempDir(), "step.log"), IdleTimeout: 5 * time.Minute}, 0)
	res, err := run.Wait()
	if err != nil || res.Failed() {
		t.Fatalf("result %+v %v\nevents %s\noutput %q", res, err, rec.Kinds(), rec.Output)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "hello.txt")); err != nil || string(b) != "hello\n" {
		t.Fatalf("hello.txt %q %v", b, err)
	}
	if res.Report != "Wrote hello.txt.\n\n## Questions for the user\n- Keep it?\n" || len(res.Questions) != 1 {
		t.Fatalf("report %q questions %q", res.Report, res.Questions)
	}
	if res.Usage.InputTokens != 100 || res.Usage.OutputTokens != 15 || res.Usage.CostKnown {
		t.Fatalf("usage %+v, want 100 in, 15 out, no cost (opencode does not know the fake's price)", res.Usage)
	}
	if !sessionRe().MatchString(res.SessionID) || !strings.Contains(rec.Kinds(), "tool_call:write,tool_result:write") {
		t.Fatalf("session %q events %s", res.SessionID, rec.Kinds())
	}
	reqs := srv.ModelRequests(fakemodel.ChatPath)
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2 (the title comes from --title)", len(reqs))
	}
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer sk-fake-opencode-key" {
		t.Fatalf("authorization %q", got)
	}
	first := clitest.ChatRequests(t, srv)[0]
	if !strings.Contains(first.RoleText("system"), system) || first.LastUserPart() != prompt || first.Model != "fake-model" {
		t.Fatalf("system prompt or prompt did not reach the server verbatim:\nuser %q\nmodel %q", first.LastUserPart(), first.Model)
	}

	// Resume the session: the history is there, usage is this run's only.
	srv.Enqueue(fakemodel.Reply{Text: "Kept it.", InputTokens: 200, OutputTokens: 4})
	run, _ = startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: "Yes, keep it.", Model: "fake-model", Dir: dir,
		ResumeSession: res.SessionID}, 0)
	res2, err := run.Wait()
	if err != nil || res2.Failed() || res2.Report != "Kept it." || res2.SessionID != res.SessionID {
		t.Fatalf("resumed %+v %v", res2, err)
	}
	if res2.Usage.InputTokens != 200 || res2.Usage.OutputTokens != 4 {
		t.Fatalf("resumed usage %+v", res2.Usage)
	}
	all := clitest.ChatRequests(t, srv)
	last := all[len(all)-1]
	if last.LastUserPart() != "Yes, keep it." || !strings.Contains(last.RoleText("user"), prompt) {
		t.Fatalf("resumed request lacks the history: %q", last.RoleText("user"))
	}
}

// The user's own provider and key, kept in ~/.config/opencode, still
// reach opencode (the file is read, never written), and a read-only step
// is offered no edit tool while its shell stays.
func TestRealUserConfigAndReadOnly(t *testing.T) {
	t.Parallel()
	srv := fakemodel.Start(t)
	c, _ := realTool(t, srv.URL())
	srv.Enqueue(fakemodel.Reply{Text: "Looks right.\n\nVERDICT: APPROVE"})
	run, rec := startStep(t, c, agent.Request{Role: task.RoleReviewer, Prompt: "Review.", Model: "userprov/user-model", Dir: clitest.GitRepo(t), ReadOnly: true}, 0)
	if res, _ := run.Wait(); res.Failed() || res.Report != "Looks right.\n\nVERDICT: APPROVE" {
		t.Fatalf("result %+v events %s", res, rec.Kinds())
	}
	reqs := srv.ModelRequests(fakemodel.ChatPath)
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer sk-user-own-key" {
		t.Fatalf("the user's provider did not answer: authorization %q", got)
	}
	r := clitest.ChatRequests(t, srv)[0]
	if r.Model != "user-model" || r.HasTool("write") || r.HasTool("edit") || !r.HasTool("bash") || !r.HasTool("read") {
		t.Fatalf("model %q tools %v", r.Model, r.ToolNames())
	}
}

// A used-up quota: opencode retries it five times (the fake ends them at
// once) and gives up; the step is a usage limit until the server's reset.
func TestRealQuotaExhaustedIsALimit(t *testing.T) {
	t.Parallel()
	srv := fakemodel.Start(t)
	c, _ := realTool(t, srv.URL())
	reset := time.Now().Add(2 * time.Hour)
	srv.SetDefault(fakemodel.ChatQuotaExhausted(reset))
	run, rec := startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: "Do it.", Model: "fake-model", Dir: clitest.GitRepo(t)}, 0)
	res, _ := run.Wait()
	if res.Limit == nil || res.Transient || res.StopReason != proc.ReasonNone {
		t.Fatalf("result %+v\nevents %s", res, rec.Kinds())
	}
	if d := res.Limit.ResetsAt.Sub(reset); d < -time.Minute || d > time.Minute {
		t.Fatalf("reset %v, want about %v (%q)", res.Limit.ResetsAt, reset, res.Limit.Message)
	}
}

// A 429 whose retry-after is an hour: opencode would wait it out in
// silence; after the quiet time the adapter ends the step as a usage
// limit, and no process is left.
func TestRealLongRetryAfterEndsAsALimit(t *testing.T) {
	t.Parallel()
	srv := fakemodel.Start(t)
	c, _ := realTool(t, srv.URL())
	limited := fakemodel.ChatRateLimited()
	limited.Header = map[string]string{"retry-after": "3600"}
	srv.SetDefault(limited)
	dir := clitest.GitRepo(t)
	run, rec := startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: "Do it.", Model: "fake-model", Dir: dir}, 5*time.Second)
	res, _ := run.Wait()
	if res.Limit == nil || res.StopReason != proc.ReasonNone || !strings.Contains(res.Limit.Message, "Rate limit reached") ||
		!strings.Contains(rec.Kinds(), "retry") {
		t.Fatalf("result %+v limit %+v\nevents %s", res, res.Limit, rec.Kinds())
	}
	if left := clitest.InDir(dir); len(left) != 0 {
		t.Fatalf("processes survived: %v", left)
	}
}

// A stop ends opencode's whole process tree, a shell command it started included.
func TestRealStopEndsTheTree(t *testing.T) {
	t.Parallel()
	srv := fakemodel.Start(t)
	c, _ := realTool(t, srv.URL())
	srv.Enqueue(fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{Name: "bash",
		Input: map[string]any{"command": "sleep 600", "description": "wait"}}}})
	srv.SetDefault(fakemodel.Reply{Hang: true})
	dir := clitest.GitRepo(t)
	run, _ := startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: "Wait.", Model: "fake-model", Dir: dir}, 0)
	deadline := time.Now().Add(5 * time.Minute)
	for !sleeping(dir) {
		if time.Now().After(deadline) {
			run.Stop(proc.ReasonStopped)
			t.Fatalf("opencode never ran its command: procs %v", clitest.InDir(dir))
		}
		time.Sleep(100 * time.Millisecond)
	}
	run.Stop(proc.ReasonStopped)
	res, _ := run.Wait()
	if res.StopReason != proc.ReasonStopped || res.Limit != nil || !res.Failed() {
		t.Fatalf("result %+v", res)
	}
	if left := clitest.InDir(dir); len(left) != 0 {
		t.Fatalf("processes survived the stop: %v", left)
	}
}

// sleeping reports whether a "sleep 600" runs in dir.
func sleeping(dir string) bool {
	for _, p := range clitest.InDir(dir) {
		if strings.Contains(p, "sleep 600") {
			return true
		}
	}
	return false
}

func TestRealHealth(t *testing.T) {
	t.Parallel()
	check := func(c *Tool) agent.Health {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		return c.Health(ctx, "fake-model")
	}
	t.Run("healthy", func(t *testing.T) {
		t.Parallel()
		srv := fakemodel.Start(t)
		c, home := realTool(t, srv.URL())
		if h := check(c); !h.Installed || !h.Authenticated || !h.Reachable || h.Version != "1.18.33" || h.Error != "" {
			t.Fatalf("health %+v", h)
		}
		// The smoke session went to a throwaway database, not the user's.
		if _, err := os.Stat(filepath.Join(home, ".local", "share", "opencode", "opencode.db")); err == nil {
			t.Errorf("the smoke prompt wrote the user's session database")
		}
	})
	t.Run("refused key", func(t *testing.T) {
		t.Parallel()
		srv := fakemodel.Start(t)
		srv.SetDefault(fakemodel.Reply{Status: 401, ErrorMessage: "Incorrect API key provided"})
		c, _ := realTool(t, srv.URL())
		if h := check(c); !h.Installed || h.Authenticated || !h.Reachable || !strings.Contains(h.Error, "Incorrect API key") {
			t.Fatalf("health %+v", h)
		}
	})
}
