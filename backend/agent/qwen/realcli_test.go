//go:build realcli

package qwen

// The real-CLI suite runs the real qwen through this adapter and the PTY
// runner against the fake chat-completions server:
//
//	BOOF_QWEN_BIN=$(scripts/install-clis.sh DIR)/qwen go test -race -tags realcli ./backend/agent/qwen

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

// userQwen writes a ~/.qwen of the user's under home (settings naming the
// model) and returns its state, to check later that no run changed it.
func userQwen(t testing.TB, home string) string {
	t.Helper()
	dir := filepath.Join(home, ".qwen")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"model": {"name": "fake-model"}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return clitest.TreeState(t, dir)
}

// realTool returns the qwen tool pointed at srvURL with a temp HOME that
// holds a ~/.qwen of the user's; withKey sets OPENAI_API_KEY.
func realTool(t testing.TB, srvURL string, withKey bool) (*Tool, string) {
	t.Helper()
	bin := clitest.RealBin(t, "BOOF_QWEN_BIN", "qwen", "0.24", 60*time.Second)
	home := t.TempDir()
	before := userQwen(t, home)
	t.Cleanup(func() {
		if after := clitest.TreeState(t, filepath.Join(home, ".qwen")); after != before {
			t.Errorf("the user's ~/.qwen changed:\nbefore\n%s\nafter\n%s", before, after)
		}
	})
	env := []string{"HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin", "OPENAI_BASE_URL=" + srvURL + "/v1", "OPENAI_MODEL=fake-model"}
	if withKey {
		env = append(env, "OPENAI_API_KEY=sk-fake-qwen-key")
	}
	return New(Options{Path: bin, Runner: clitest.Runner(t), Env: env, LookupEnv: clitest.NoEnv, TempDir: t.TempDir()}), home
}

// startStep starts a real step and fails the test on error.
func startStep(t *testing.T, c *Tool, req agent.Request) (agent.Run, *clitest.Recorder) {
	t.Helper()
	rec := &clitest.Recorder{}
	req.OnEvent, req.OnOutput = rec.Event, rec.Chunk
	if req.Grace == 0 {
		req.Grace = 2 * time.Second
	}
	run, err := c.Start(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return run, rec
}

func TestRealWritesFileReportsAndResumes(t *testing.T) {
	t.Parallel()
	srv := fakemodel.Start(t)
	c, home := realTool(t, srv.URL(), true)
	dir := clitest.GitRepo(t)
	srv.Enqueue(
		fakemodel.Reply{Text: "Writing it.", ToolCalls: []fakemodel.ToolCall{{Name: "write_file",
			Input: map[string]any{"file_path": filepath.Join(dir, "hello.txt"), "content": "hello\n"}}}, InputTokens: 40, OutputTokens: 6},
		fakemodel.Reply{Text: "Wrote hello.txt.\n\n## Questions for the user\n- Keep it?\n", InputTokens: 60, CacheReadTokens: 20, OutputTokens: 9},
	)
	const prompt = "-Create \"hello.txt\" -- verbatim.\nSecond line ✓"
	system := "You are the \"developer\" role.\n--yolo is not a flag here"
	run, rec := startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: prompt, SystemPrompt: system, Model: "fake-model", Dir: dir,
		TranscriptPath: filepath.Join(t.TempDir(), "step.log"), IdleTimeout: 3 * time.Minute, MaxRuntime: 5 * time.Minute})
	res, err := run.Wait()
	if err != nil || res.Failed() {
		t.Fatalf("result %+v %v\nevents %s\noutput %q", res, err, rec.Kinds(), rec.Output)
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
	if !sessionRe().MatchString(res.SessionID) || !strings.Contains(rec.Kinds(), "tool_call:write_file,") || !strings.Contains(rec.Kinds(), "tool_result") {
		t.Fatalf("session %q events %s", res.SessionID, rec.Kinds())
	}
	// The session lives in its own home, outside the user's ~/.qwen.
	sessionHome := filepath.Join(home, ".local", "state", "boof-runner", Name, res.SessionID)
	if m, _ := filepath.Glob(filepath.Join(sessionHome, "projects", "*", "chats", res.SessionID+".jsonl")); len(m) != 1 {
		t.Fatalf("no session file in %s", sessionHome)
	}
	reqs := srv.ModelRequests(fakemodel.ChatPath)
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer sk-fake-qwen-key" {
		t.Fatalf("authorization %q", got)
	}
	first := clitest.ChatRequests(t, srv)[0]
	if !strings.Contains(first.RoleText("system"), system) || first.LastUserPart() != prompt || first.Model != "fake-model" {
		t.Fatalf("system prompt or prompt did not reach the server verbatim:\nuser %q\nmodel %q", first.LastUserPart(), first.Model)
	}

	// Resume the session: the history is there, usage is this run's only.
	srv.Enqueue(fakemodel.Reply{Text: "Kept it.", InputTokens: 200, OutputTokens: 4})
	run, _ = startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: "Yes, keep it.", Dir: dir, ResumeSession: res.SessionID,
		MaxRuntime: 5 * time.Minute})
	res2, err := run.Wait()
	if err != nil || res2.Failed() || res2.Report != "Kept it." || res2.SessionID != res.SessionID {
		t.Fatalf("resumed %+v %v", res2, err)
	}
	if want := (agent.Usage{InputTokens: 200, OutputTokens: 4}); res2.Usage != want {
		t.Fatalf("resumed usage %+v, want %+v", res2.Usage, want)
	}
	all := clitest.ChatRequests(t, srv)
	last := all[len(all)-1]
	if last.LastUserPart() != "Yes, keep it." || !strings.Contains(last.RoleText("user"), prompt) {
		t.Fatalf("resumed request lacks the history: %q", last.RoleText("user"))
	}
}

// A read-only step is offered no edit tool; its shell stays for tests.
func TestRealReadOnlyStepHasNoEditTools(t *testing.T) {
	t.Parallel()
	srv := fakemodel.Start(t)
	c, _ := realTool(t, srv.URL(), true)
	srv.Enqueue(fakemodel.Reply{Text: "Looks right.\n\nVERDICT: APPROVE"})
	run, rec := startStep(t, c, agent.Request{Role: task.RoleReviewer, Prompt: "Review.", Dir: clitest.GitRepo(t), ReadOnly: true, MaxRuntime: 5 * time.Minute})
	if res, _ := run.Wait(); res.Failed() || res.Report != "Looks right.\n\nVERDICT: APPROVE" {
		t.Fatalf("result %+v events %s", res, rec.Kinds())
	}
	r := clitest.ChatRequests(t, srv)[0]
	for _, tool := range editTools {
		if r.HasTool(tool) {
			t.Errorf("read-only step offered %s: %v", tool, r.ToolNames())
		}
	}
	if !r.HasTool("run_shell_command") || !r.HasTool("read_file") {
		t.Errorf("read-only step lost its shell or reading: %v", r.ToolNames())
	}
}

// A message sent while a step runs reaches qwen: it answers it as a second
// turn of the session before the step ends.
func TestRealMidRunInput(t *testing.T) {
	t.Parallel()
	srv := fakemodel.Start(t)
	c, _ := realTool(t, srv.URL(), true)
	srv.Enqueue(fakemodel.Reply{Text: "Working on it, slowly and carefully.", ChunkDelay: 3 * time.Second},
		fakemodel.Reply{Text: "Also said PINEAPPLE."})
	run, rec := startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: "Count to three.", Dir: clitest.GitRepo(t), MaxRuntime: 5 * time.Minute})
	deadline := time.Now().Add(3 * time.Minute)
	for len(srv.ModelRequests(fakemodel.ChatPath)) == 0 {
		if time.Now().After(deadline) {
			run.Stop(proc.ReasonStopped)
			t.Fatal("qwen never called the model")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := run.Send("Also say the word PINEAPPLE."); err != nil {
		t.Fatalf("send: %v", err)
	}
	res, _ := run.Wait()
	if res.Failed() || res.Report != "Also said PINEAPPLE." {
		t.Fatalf("result %+v events %s", res, rec.Kinds())
	}
	all := clitest.ChatRequests(t, srv)
	if len(all) != 2 || all[1].LastUserPart() != "Also say the word PINEAPPLE." {
		t.Fatalf("%d requests, last user text %q", len(all), all[len(all)-1].LastUserPart())
	}
	if err := run.Send("too late"); err != agent.ErrRunDone {
		t.Fatalf("send after the end: %v", err)
	}
}

// A used-up quota: qwen fails at once (the fake ends the SDK's retries at
// once), and the step is a usage limit until the reset the server named.
func TestRealQuotaExhaustedIsALimit(t *testing.T) {
	t.Parallel()
	srv := fakemodel.Start(t)
	c, _ := realTool(t, srv.URL(), true)
	reset := time.Now().Add(2 * time.Hour).Truncate(time.Second)
	srv.SetDefault(fakemodel.ChatQuotaExhausted(reset))
	run, rec := startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: "Do it.", Dir: clitest.GitRepo(t), MaxRuntime: 5 * time.Minute})
	res, _ := run.Wait()
	if res.Limit == nil || res.Transient || res.StopReason != proc.ReasonNone || !res.Limit.ResetsAt.Equal(reset) {
		t.Fatalf("result %+v limit %+v\nevents %s", res, res.Limit, rec.Kinds())
	}
}

// A plain 429 that never ends: qwen retries it silently for about a
// minute, then with system/retry events for many more; the adapter ends
// the step at the first event as a usage limit, the whole tree gone.
func TestRealPersistentRateLimitEndsAsALimit(t *testing.T) {
	t.Parallel()
	srv := fakemodel.Start(t)
	c, _ := realTool(t, srv.URL(), true)
	srv.SetDefault(fakemodel.ChatRateLimited())
	dir := clitest.GitRepo(t)
	run, rec := startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: "Do it.", Dir: dir, MaxRuntime: 10 * time.Minute})
	res, _ := run.Wait()
	if res.Limit == nil || res.Limit.Kind != "rate_limit" || res.Transient || res.StopReason != proc.ReasonNone ||
		!strings.Contains(rec.Kinds(), "retry") {
		t.Fatalf("result %+v limit %+v\nevents %s", res, res.Limit, rec.Kinds())
	}
	if left := clitest.InDir(dir); len(left) != 0 {
		t.Fatalf("processes survived: %v", left)
	}
}

// A stop ends qwen's whole process tree, a shell command it started included.
func TestRealStopEndsTheTree(t *testing.T) {
	t.Parallel()
	srv := fakemodel.Start(t)
	c, _ := realTool(t, srv.URL(), true)
	srv.Enqueue(fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{Name: "run_shell_command",
		Input: map[string]any{"command": "sleep 600", "is_background": true, "description": "wait"}}}})
	srv.SetDefault(fakemodel.Reply{Hang: true})
	dir := clitest.GitRepo(t)
	run, _ := startStep(t, c, agent.Request{Role: task.RoleDeveloper, Prompt: "Wait.", Dir: dir, MaxRuntime: 5 * time.Minute})
	deadline := time.Now().Add(3 * time.Minute)
	for len(srv.ModelRequests(fakemodel.ChatPath)) < 2 || !sleeping(dir) {
		if time.Now().After(deadline) {
			run.Stop(proc.ReasonStopped)
			t.Fatalf("qwen never reached the hanging request with its command running: procs %v", clitest.InDir(dir))
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
	srv := fakemodel.Start(t)
	check := func(c *Tool) agent.Health {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		return c.Health(ctx, "fake-model")
	}
	t.Run("healthy", func(t *testing.T) {
		t.Parallel()
		c, _ := realTool(t, srv.URL(), true)
		if h := check(c); !h.Installed || !h.Authenticated || !h.Reachable || h.Version != "0.24.4" || h.Error != "" {
			t.Fatalf("health %+v", h)
		}
	})
	t.Run("refused key", func(t *testing.T) {
		t.Parallel()
		bad := fakemodel.Start(t)
		bad.SetDefault(fakemodel.Reply{Status: 401, ErrorMessage: "Incorrect API key provided"})
		c, _ := realTool(t, bad.URL(), true)
		if h := check(c); !h.Installed || h.Authenticated || !h.Reachable || !strings.Contains(h.Error, "Incorrect API key") {
			t.Fatalf("health %+v", h)
		}
	})
}
