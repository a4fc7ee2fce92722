//go:build realcli

package claude

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// claudeBin returns BOOF_CLAUDE_BIN: it skips when unset and fails when set
// but unusable.
func claudeBin(t testing.TB) string {
	t.Helper()
	bin := os.Getenv("BOOF_CLAUDE_BIN")
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("BOOF_CLAUDE_BIN is not set (CI=true: the real claude CLI suite must run)")
		}
		t.Skip("BOOF_CLAUDE_BIN is not set; run scripts/install-clis.sh DIR and set it to DIR's bin/claude")
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.Contains(string(out), "Claude Code") {
		t.Fatalf("BOOF_CLAUDE_BIN=%s is unusable: %v %q", bin, err, out)
	}
	return bin
}

// fakeEnv points claude at srv with a throwaway HOME.
func fakeEnv(t testing.TB, url string, withKey bool) []string {
	env := []string{"HOME=" + t.TempDir(), "ANTHROPIC_BASE_URL=" + url,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1"}
	if withKey {
		env = append(env, "ANTHROPIC_API_KEY=sk-ant-fake-test-key")
	}
	return env
}

// newReal returns the adapter for the real CLI pointed at url.
func newReal(t testing.TB, url string, midRun bool) *Tool {
	return New(Options{Path: claudeBin(t), Runner: testRunner, Env: fakeEnv(t, url, true), PassEnv: []string{}, MidRunInput: midRun})
}

func gitRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"-c", "user.name=T", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return dir
}

type events struct {
	mu  sync.Mutex
	evs []agent.Event
	ch  chan agent.Event
}

func newEvents() *events { return &events{ch: make(chan agent.Event, 1000)} }

func (e *events) add(ev agent.Event) {
	e.mu.Lock()
	e.evs = append(e.evs, ev)
	e.mu.Unlock()
	select {
	case e.ch <- ev:
	default:
	}
}

func (e *events) find(kind agent.EventKind, tool string) (agent.Event, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, ev := range e.evs {
		if ev.Kind == kind && (tool == "" || ev.Tool == tool) {
			return ev, true
		}
	}
	return agent.Event{}, false
}

// waitEvent waits for an event of kind (and tool), failing after 60 s.
func (e *events) waitEvent(t *testing.T, kind agent.EventKind, tool string) agent.Event {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		if ev, ok := e.find(kind, tool); ok {
			return ev
		}
		select {
		case <-e.ch:
		case <-deadline:
			t.Fatalf("no %s event", kind)
		}
	}
}

func TestRealWritesFileAndReports(t *testing.T) {
	srv := fakemodel.Start(t)
	dir := gitRepo(t)
	srv.Enqueue(
		fakemodel.Reply{Text: "Writing the file.", ToolCalls: []fakemodel.ToolCall{{Name: "Write",
			Input: map[string]any{"file_path": filepath.Join(dir, "hello.txt"), "content": "hello from claude\n"}}}},
		fakemodel.Reply{Text: "Wrote hello.txt.\n\n## Questions for the user\n- Commit it?", InputTokens: 300, OutputTokens: 40, CacheReadTokens: 5},
	)
	ev := newEvents()
	tool := newReal(t, srv.URL(), false)
	transcript := filepath.Join(t.TempDir(), "claude.log")
	run, err := tool.Start(context.Background(), agent.Request{Role: task.RoleDeveloper, Prompt: "- Create hello.txt (the prompt starts with a dash).",
		SystemPrompt: "--ROLE-SYSTEM-PROMPT-MARK", Model: "claude-sonnet-4-6", Dir: dir, OnEvent: ev.add,
		TranscriptPath: transcript, Grace: 2 * time.Second, IdleTimeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	res, err := run.Wait()
	if err != nil || res.Failed() {
		t.Fatalf("result %+v, %v", res, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "hello.txt")); err != nil || string(b) != "hello from claude\n" {
		t.Fatalf("file %q %v", b, err)
	}
	if !strings.HasPrefix(res.Report, "Wrote hello.txt.") || len(res.Questions) != 1 || len(res.SessionID) != 36 {
		t.Fatalf("result %+v", res)
	}
	if res.Usage.InputTokens < 300 || res.Usage.OutputTokens < 40 || !res.Usage.CostKnown {
		t.Fatalf("usage %+v", res.Usage)
	}
	if call, ok := ev.find(agent.EventToolCall, "Write"); !ok || !strings.Contains(call.Text, "hello.txt") {
		t.Fatalf("no Write call: %+v", call)
	}
	if _, ok := ev.find(agent.EventToolResult, ""); !ok {
		t.Fatal("no tool result")
	}
	reqs := srv.ModelRequests("/v1/messages")
	if len(reqs) < 2 {
		t.Fatalf("%d model requests", len(reqs))
	}
	m, err := fakemodel.ParseMessages(reqs[0].Body)
	if err != nil || m.Model != "claude-sonnet-4-6" || !strings.Contains(string(m.System), "ROLE-SYSTEM-PROMPT-MARK") || !strings.Contains(m.AllText(), "- Create hello.txt (the prompt starts with a dash).") {
		t.Fatalf("first request model %q, system has mark %v, err %v", m.Model, strings.Contains(string(m.System), "ROLE-SYSTEM-PROMPT-MARK"), err)
	}
	if b, _ := os.ReadFile(transcript); !strings.Contains(string(b), `"type":"result"`) {
		t.Fatal("transcript lacks the result line")
	}

	// Resume continues the same native session.
	srv.Enqueue(fakemodel.Reply{Text: "Resumed."})
	run, err = tool.Start(context.Background(), agent.Request{Role: task.RoleDeveloper, Prompt: "Continue.", Dir: dir, ResumeSession: res.SessionID})
	if err != nil {
		t.Fatal(err)
	}
	res2, _ := run.Wait()
	if res2.Failed() || res2.Report != "Resumed." || res2.SessionID == "" {
		t.Fatalf("resume %+v", res2)
	}
	last := srv.ModelRequests("/v1/messages")
	m, _ = fakemodel.ParseMessages(last[len(last)-1].Body)
	if !strings.Contains(m.AllText(), "- Create hello.txt (the prompt starts with a dash).") || !strings.Contains(m.AllText(), "Continue.") {
		t.Fatal("resumed request lacks the earlier conversation")
	}
}

func TestRealTransientErrors(t *testing.T) {
	for _, status := range []int{529, 503} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			srv := fakemodel.Start(t)
			srv.SetDefault(fakemodel.Reply{Status: status})
			run, err := newReal(t, srv.URL(), false).Start(context.Background(), agent.Request{Prompt: "hi", Dir: t.TempDir(),
				Env: []string{"CLAUDE_CODE_MAX_RETRIES=0"}})
			if err != nil {
				t.Fatal(err)
			}
			res, _ := run.Wait()
			if !res.Failed() || !res.Transient || !strings.Contains(res.ErrorText, "API Error: "+strconv.Itoa(status)) || res.Report != "" {
				t.Fatalf("result %+v", res)
			}
		})
	}
	t.Run("retried by claude then succeeds", func(t *testing.T) {
		srv := fakemodel.Start(t)
		srv.Enqueue(fakemodel.Reply{Status: 529}, fakemodel.Reply{Text: "Recovered."})
		ev := newEvents()
		run, err := newReal(t, srv.URL(), false).Start(context.Background(), agent.Request{Prompt: "hi", Dir: t.TempDir(),
			Env: []string{"CLAUDE_CODE_MAX_RETRIES=2"}, OnEvent: ev.add})
		if err != nil {
			t.Fatal(err)
		}
		res, _ := run.Wait()
		retry, ok := ev.find(agent.EventRetry, "")
		if res.Failed() || res.Report != "Recovered." || !ok || retry.ErrorStatus != 529 || retry.Attempt != 1 || retry.MaxAttempts != 2 {
			t.Fatalf("result %+v, retry %+v", res, retry)
		}
	})
	t.Run("auth is not transient", func(t *testing.T) {
		srv := fakemodel.Start(t)
		srv.SetDefault(fakemodel.Reply{Status: 401})
		run, err := newReal(t, srv.URL(), false).Start(context.Background(), agent.Request{Prompt: "hi", Dir: t.TempDir(),
			Env: []string{"CLAUDE_CODE_MAX_RETRIES=0"}})
		if err != nil {
			t.Fatal(err)
		}
		if res, _ := run.Wait(); !res.Failed() || res.Transient || !strings.Contains(res.ErrorText, "401") {
			t.Fatalf("result %+v", res)
		}
	})
}

// marked lists live processes whose environment holds mark, with their
// command lines.
func marked(mark string) map[int]string {
	pids := map[int]string{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !strings.Contains(string(env), mark) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if f := strings.Fields(string(st[strings.LastIndexByte(string(st), ')')+1:])); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		pids[pid] = strings.ReplaceAll(string(cmd), "\x00", " ")
	}
	return pids
}

// hasCmd reports whether a command line in procs contains s.
func hasCmd(procs map[int]string, s string) bool {
	for _, c := range procs {
		if strings.Contains(c, s) {
			return true
		}
	}
	return false
}

func randomMark(t *testing.T) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "BOOF_TEST_MARK=" + hex.EncodeToString(b[:])
}

func TestRealStopLeavesNoProcess(t *testing.T) {
	srv := fakemodel.Start(t)
	srv.Enqueue(fakemodel.Reply{ToolCalls: []fakemodel.ToolCall{{Name: "Bash", Input: map[string]any{"command": "sleep 300", "description": "wait"}}}})
	srv.SetDefault(fakemodel.Reply{Hang: true})
	mark := randomMark(t)
	ev := newEvents()
	run, err := newReal(t, srv.URL(), false).Start(context.Background(), agent.Request{Prompt: "Wait.", Dir: t.TempDir(),
		Env: []string{mark}, OnEvent: ev.add, Grace: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ev.waitEvent(t, agent.EventToolCall, "Bash")
	// Wait until the tool's own child (sleep) is running too.
	deadline := time.Now().Add(30 * time.Second)
	for !hasCmd(marked(mark), "sleep 300") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	before := marked(mark)
	if !hasCmd(before, "sleep 300") {
		t.Fatalf("expected claude and its child, found %v", before)
	}
	run.Stop(proc.ReasonStopped)
	res, _ := run.Wait()
	if res.StopReason != proc.ReasonStopped || res.Transient || !res.Failed() {
		t.Fatalf("result %+v", res)
	}
	if left := marked(mark); len(left) != 0 {
		t.Fatalf("survivors %v (before stop: %v)", left, before)
	}
}

func TestRealMidRunMessage(t *testing.T) {
	srv := fakemodel.Start(t)
	srv.SetResponder(func(r fakemodel.Request) fakemodel.Reply {
		m, _ := fakemodel.ParseMessages(r.Body)
		switch {
		case strings.Contains(m.AllText(), "STEER-MARK"):
			return fakemodel.Reply{Text: "Steered: adding the README too."}
		case m.HasToolResult():
			return fakemodel.Reply{Text: "Finished without steering."}
		default:
			return fakemodel.Reply{Text: "Working.", ToolCalls: []fakemodel.ToolCall{{Name: "Bash", Input: map[string]any{"command": "sleep 3", "description": "work"}}}}
		}
	})
	ev := newEvents()
	run, err := newReal(t, srv.URL(), true).Start(context.Background(), agent.Request{Prompt: "Do the work.", Dir: t.TempDir(), OnEvent: ev.add})
	if err != nil {
		t.Fatal(err)
	}
	ev.waitEvent(t, agent.EventToolCall, "Bash")
	if err := run.Send("STEER-MARK: also add a README"); err != nil {
		t.Fatal(err)
	}
	res, _ := run.Wait()
	if res.Failed() || res.Report != "Steered: adding the README too." {
		t.Fatalf("result %+v", res)
	}
	if err := run.Send("late"); err == nil {
		t.Fatal("send after the run ended succeeded")
	}
}

func TestRealHealth(t *testing.T) {
	bin := claudeBin(t)
	srv := fakemodel.Start(t)
	// Callers give a health check 20 s; a loaded CI machine gets more.
	healthCtx := func(t *testing.T) context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		t.Cleanup(cancel)
		return ctx
	}
	t.Run("not installed", func(t *testing.T) {
		h := New(Options{Path: "claude", Runner: testRunner, PassEnv: []string{}, Env: []string{"PATH="},
			LookupEnv: func(string) (string, bool) { return "", false }}).Health(healthCtx(t), "")
		if h.Installed || h.Authenticated || !strings.Contains(h.Error, "not installed") {
			t.Fatalf("health %+v", h)
		}
	})
	t.Run("by name in PATH", func(t *testing.T) {
		h := New(Options{Path: "claude", Runner: testRunner, PassEnv: []string{}, Env: append(fakeEnv(t, srv.URL(), true), "PATH="+filepath.Dir(bin)+":/usr/bin:/bin")}).Health(healthCtx(t), "haiku")
		if !h.Installed || h.Path != filepath.Join(filepath.Dir(bin), "claude") || !h.Authenticated {
			t.Fatalf("health %+v", h)
		}
	})
	t.Run("no key", func(t *testing.T) {
		h := New(Options{Path: bin, Runner: testRunner, PassEnv: []string{}, Env: fakeEnv(t, srv.URL(), false)}).Health(healthCtx(t), "")
		if !h.Installed || h.Version == "" || h.Authenticated || !h.Reachable || !strings.Contains(h.Error, "Not logged in") {
			t.Fatalf("health %+v", h)
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		h := New(Options{Path: bin, Runner: testRunner, PassEnv: []string{}, Env: fakeEnv(t, "http://127.0.0.1:9", true)}).Health(healthCtx(t), "")
		if !h.Installed || h.Authenticated || h.Reachable || !strings.Contains(h.Error, "ConnectionRefused") {
			t.Fatalf("health %+v", h)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		srv.SetDefault(fakemodel.Reply{Text: "OK"})
		h := newReal(t, srv.URL(), false).Health(healthCtx(t), "haiku")
		if !h.Installed || !h.Authenticated || !h.Reachable || h.Error != "" || h.Version != "2.1.197" {
			t.Fatalf("health %+v", h)
		}
		reqs := srv.ModelRequests("/v1/messages")
		m, _ := fakemodel.ParseMessages(reqs[len(reqs)-1].Body)
		if !strings.Contains(m.Model, "haiku") || !strings.Contains(m.AllText(), SmokePrompt) {
			t.Fatalf("smoke request model %q", m.Model)
		}
	})
}
