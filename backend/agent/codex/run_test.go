package codex

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// td is the absolute path of testdata/codex/<name>.
func td(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "codex", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// recorder collects events and output; safe to read after Wait.
type recorder struct {
	mu     sync.Mutex
	events []agent.Event
	output []byte
}

func (r *recorder) event(e agent.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) chunk(b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.output = append(r.output, b...)
}

func (r *recorder) kinds() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return kinds(r.events)
}

// runStep starts a step with the fake codex and waits for it.
func runStep(t *testing.T, c *Tool, req agent.Request) (agent.Result, *recorder) {
	t.Helper()
	rec := &recorder{}
	if req.Dir == "" {
		req.Dir = t.TempDir()
	}
	if req.Prompt == "" {
		req.Prompt = "Do the task."
	}
	req.OnEvent, req.OnOutput = rec.event, rec.chunk
	run, err := c.Start(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	res, err := run.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return res, rec
}

func TestRunSuccessReplaysRecording(t *testing.T) {
	c := fakeTool(t, "FAKE_CODEX_STREAM="+td(t, "file_change/stream.jsonl"), "FAKE_CODEX_LAST="+td(t, "file_change/last.txt"))
	transcript := filepath.Join(t.TempDir(), "logs", "step.log")
	res, rec := runStep(t, c, agent.Request{Role: task.RoleDeveloper, TranscriptPath: transcript})
	if res.Failed() || res.ErrorText != "" || res.Transient {
		t.Fatalf("failed: %+v", res)
	}
	want, _ := os.ReadFile(td(t, "file_change/last.txt"))
	if res.Report != string(want) {
		t.Fatalf("report %q", res.Report)
	}
	if len(res.Questions) != 1 || res.Questions[0] != "Keep the trailing newline?" {
		t.Fatalf("questions %q", res.Questions)
	}
	if !strings.HasPrefix(res.SessionID, "01a229f") || res.Usage.InputTokens != 54 || res.Usage.OutputTokens != 25 {
		t.Fatalf("session %q usage %+v", res.SessionID, res.Usage)
	}
	wantKinds := "raw,session,text,tool_call:apply_patch,tool_result:apply_patch,tool_call:exec_command,tool_result:exec_command!,text,usage,question"
	if got := rec.kinds(); got != wantKinds {
		t.Fatalf("events %s\nwant   %s", got, wantKinds)
	}
	if !strings.Contains(string(rec.output), `"thread.started"`) {
		t.Fatalf("raw output missing: %q", rec.output)
	}
	log, err := os.ReadFile(transcript)
	if err != nil || !strings.Contains(string(log), `"turn.completed"`) {
		t.Fatalf("transcript %q %v", log, err)
	}
	if left, _ := filepath.Glob(filepath.Join(c.opts.TempDir, "*")); len(left) != 0 {
		t.Fatalf("temp files left: %v", left)
	}
}

func TestRunPassesArguments(t *testing.T) {
	argsFile := filepath.Join(t.TempDir(), "args.json")
	c := fakeTool(t, "FAKE_CODEX_STREAM="+td(t, "success/stream.jsonl"), "FAKE_CODEX_ARGS="+argsFile)
	c.opts.ConfigOverrides = []string{"model_provider=fake"}
	dir := t.TempDir()
	system := "You are the \"developer\".\nNever push."
	res, _ := runStep(t, c, agent.Request{Prompt: "-n do it", SystemPrompt: system, Model: "gpt-6.2-sol", Dir: dir})
	got := readArgs(t, argsFile)
	want := []string{"exec", "--json", "--dangerously-bypass-approvals-and-sandbox", "--skip-git-repo-check",
		"-C", dir, "-m", "gpt-6.2-sol", "-o", "<last>",
		"-c", `developer_instructions="You are the \"developer\".\nNever push."`,
		"-c", "model_provider=fake", "--", "-n do it"}
	if strings.Join(got.Args, "\x00") != strings.Join(want, "\x00") {
		t.Fatalf("args\n got %q\nwant %q", got.Args, want)
	}
	if got.Dir != dir {
		t.Fatalf("ran in %q, want %q", got.Dir, dir)
	}
	// The -o file was empty: the report falls back to the last agent message.
	if res.Report != "All done.\n\nVERDICT: APPROVE" {
		t.Fatalf("fallback report %q", res.Report)
	}
}

func TestRunRelativeDirBecomesAbsolute(t *testing.T) {
	argsFile := filepath.Join(t.TempDir(), "args.json")
	c := fakeTool(t, "FAKE_CODEX_STREAM="+td(t, "success/stream.jsonl"), "FAKE_CODEX_ARGS="+argsFile)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(wd, "..", "..", "..", "testdata", "codex", "success")
	res, _ := runStep(t, c, agent.Request{Dir: filepath.Join("..", "..", "..", "testdata", "codex", "success")})
	got := readArgs(t, argsFile)
	if res.Failed() || got.Args[4] != "-C" || got.Args[5] != filepath.Clean(abs) || got.Dir != filepath.Clean(abs) {
		t.Fatalf("args %q dir %q (want %q), result %+v", got.Args, got.Dir, abs, res)
	}
}

func TestRunResumeReportsDeltaFromSessionFile(t *testing.T) {
	argsFile := filepath.Join(t.TempDir(), "args.json")
	c := fakeTool(t, "FAKE_CODEX_STREAM="+td(t, "resume/stream.jsonl"), "FAKE_CODEX_ARGS="+argsFile)
	first, _ := parseAll(readTestdata(t, "resume/first.jsonl"), ThreadUsage{})
	id := first.SessionID()
	// Codex's session file for the thread, as codex 0.171 writes it.
	home, _ := lookupEnv(c.opts.Env, "CODEX_HOME")
	sess := filepath.Join(home, "sessions", "2026", "11", "30")
	if err := os.MkdirAll(sess, 0o700); err != nil {
		t.Fatal(err)
	}
	rollout := `{"type":"session_meta","payload":{"id":"` + id + `"}}
{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":50,"cached_input_tokens":0,"output_tokens":5}}}}
{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":10,"reasoning_output_tokens":0,"total_tokens":110}}}}
{"type":"event_msg","payload":{"type":"task_complete"}}
`
	if err := os.WriteFile(filepath.Join(sess, "rollout-2026-11-30T00-59-00-"+id+".jsonl"), []byte(rollout), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	res, _ := runStep(t, c, agent.Request{ResumeSession: id, Dir: dir, Prompt: "Continue."})
	if want := (agent.Usage{InputTokens: 150, CacheReadTokens: 90, OutputTokens: 5}); res.Usage != want {
		t.Fatalf("usage %+v, want the delta %+v", res.Usage, want)
	}
	got := readArgs(t, argsFile)
	if got.Args[0] != "exec" || got.Args[1] != "resume" || got.Dir != dir || strings.Contains(strings.Join(got.Args, " "), " -C ") {
		t.Fatalf("resume args %q in %q", got.Args, got.Dir)
	}
	if n := len(got.Args); got.Args[n-3] != "--" || got.Args[n-2] != id || got.Args[n-1] != "Continue." {
		t.Fatalf("resume tail %q", got.Args)
	}
	// A second resume with no session file left uses what this process remembers.
	os.RemoveAll(filepath.Join(home, "sessions"))
	res, _ = runStep(t, c, agent.Request{ResumeSession: id, Dir: dir, Prompt: "Again."})
	if res.Usage != (agent.Usage{}) {
		t.Fatalf("remembered base: usage %+v, want zero (same totals again)", res.Usage)
	}
}

func TestRunLongPromptGoesThroughStdin(t *testing.T) {
	argsFile := filepath.Join(t.TempDir(), "args.json")
	c := fakeTool(t, "FAKE_CODEX_STREAM="+td(t, "success/stream.jsonl"), "FAKE_CODEX_ARGS="+argsFile)
	prompt := strings.Repeat("long prompt line ✓\n", 20000) // ~400 KB, over the argument limit
	res, _ := runStep(t, c, agent.Request{Prompt: prompt})
	got := readArgs(t, argsFile)
	if got.Args[len(got.Args)-1] != "-" || got.Stdin != prompt {
		t.Fatalf("last arg %q, stdin %d bytes (want %d)", got.Args[len(got.Args)-1], len(got.Stdin), len(prompt))
	}
	if res.Failed() {
		t.Fatalf("failed: %+v", res)
	}
}

func TestRunFailures(t *testing.T) {
	for _, tc := range []struct {
		name      string
		exit      string
		errText   string
		transient bool
	}{
		{"failure_503", "1", "unexpected status 503", true},
		{"no_key", "1", "Missing environment variable", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := fakeTool(t, "FAKE_CODEX_STREAM="+td(t, tc.name+"/stream.jsonl"), "FAKE_CODEX_EXIT="+tc.exit)
			res, _ := runStep(t, c, agent.Request{})
			if !res.Failed() || res.ExitCode != 1 || !strings.Contains(res.ErrorText, tc.errText) || res.Transient != tc.transient {
				t.Fatalf("result %+v", res)
			}
			if res.Report != "" || res.SessionID == "" || res.StopReason != proc.ReasonNone {
				t.Fatalf("report %q session %q reason %v", res.Report, res.SessionID, res.StopReason)
			}
		})
	}
	t.Run("exit without turn", func(t *testing.T) {
		c := fakeTool(t, "FAKE_CODEX_EXIT=0")
		res, _ := runStep(t, c, agent.Request{})
		if !res.Failed() || res.ErrorText != "codex ended without completing its turn: Reading additional input from stdin..." || res.Transient {
			t.Fatalf("result %+v", res)
		}
	})
	t.Run("crash", func(t *testing.T) {
		c := fakeTool(t, "FAKE_CODEX_EXIT=101")
		res, _ := runStep(t, c, agent.Request{})
		if !res.Failed() || res.ExitCode != 101 || res.ErrorText != "codex exit status 101: Reading additional input from stdin..." {
			t.Fatalf("result %+v", res)
		}
	})
}

func TestRunDeadServerEndsByWatchdog(t *testing.T) {
	// The unreachable recording ends in "Reconnecting..." notices; the fake
	// then hangs as codex does, with a child process.
	for _, tc := range []struct {
		name      string
		req       agent.Request
		reason    proc.Reason
		transient bool
	}{
		{"idle", agent.Request{IdleTimeout: 300 * time.Millisecond, Grace: time.Second}, proc.ReasonStalled, true},
		{"deadline", agent.Request{MaxRuntime: 500 * time.Millisecond, Grace: time.Second}, proc.ReasonTimeout, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := fakeTool(t, "FAKE_CODEX_STREAM="+td(t, "unreachable/stream.jsonl"), "FAKE_CODEX_HANG=1")
			res, _ := runStep(t, c, tc.req)
			if res.StopReason != tc.reason || res.Transient != tc.transient || !res.Failed() {
				t.Fatalf("result %+v", res)
			}
			if !strings.HasPrefix(res.ErrorText, "Reconnecting... waiting for network") {
				t.Fatalf("error text %q", res.ErrorText)
			}
		})
	}
}

func TestStartRejectsBadInput(t *testing.T) {
	c := fakeTool(t, "FAKE_CODEX_STREAM="+td(t, "success/stream.jsonl"))
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		req  agent.Request
		want error
	}{
		{"empty prompt", agent.Request{Prompt: "  \n", Dir: dir}, ErrEmptyPrompt},
		{"flag as session", agent.Request{Prompt: "p", Dir: dir, ResumeSession: "--last"}, ErrBadSession},
		{"session with space", agent.Request{Prompt: "p", Dir: dir, ResumeSession: "a b"}, ErrBadSession},
		{"flag as model", agent.Request{Prompt: "p", Dir: dir, Model: "-c"}, ErrBadModel},
		{"nul in prompt", agent.Request{Prompt: "a\x00b", Dir: dir}, ErrBadText},
		{"bad utf8 system", agent.Request{Prompt: "p", SystemPrompt: "\xff", Dir: dir}, ErrBadText},
		{"huge system prompt", agent.Request{Prompt: "p", SystemPrompt: strings.Repeat("x", 200<<10), Dir: dir}, ErrSystemPromptTooLong},
		{"missing dir", agent.Request{Prompt: "p", Dir: filepath.Join(dir, "nope")}, os.ErrNotExist},
		{"no dir", agent.Request{Prompt: "p"}, ErrNoDir},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run, err := c.Start(context.Background(), tc.req)
			if !errors.Is(err, tc.want) || run != nil {
				t.Fatalf("Start = %v, %v; want %v", run, err, tc.want)
			}
			if left, _ := filepath.Glob(filepath.Join(c.opts.TempDir, "*")); len(left) != 0 {
				t.Fatalf("temp files left: %v", left)
			}
		})
	}
}

func TestStartNotInstalled(t *testing.T) {
	for _, bin := range []string{"/nonexistent/codex", "codex-not-on-path"} {
		c := New(Options{Runner: newRunner(t), Path: bin, Env: []string{"PATH=" + t.TempDir()}, TempDir: t.TempDir()})
		run, err := c.Start(context.Background(), agent.Request{Prompt: "p", Dir: t.TempDir()})
		if !errors.Is(err, agent.ErrNotInstalled) || run != nil || !strings.Contains(err.Error(), bin) {
			t.Fatalf("%s: Start = %v, %v", bin, run, err)
		}
	}
	if run, err := New(Options{}).Start(context.Background(), agent.Request{Prompt: "p", Dir: t.TempDir()}); !errors.Is(err, ErrNoRunner) || run != nil {
		t.Fatalf("Start without runner = %v, %v", run, err)
	}
	if h := New(Options{}).Health(context.Background(), ""); h.Installed || h.Error != ErrNoRunner.Error() {
		t.Fatalf("Health without runner = %+v", h)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
