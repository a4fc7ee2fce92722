package claude

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// fakeCLI returns a tool running testdata/claude/fake-claude.sh on the
// recorded case, and the dir where the script records what it got.
func fakeCLI(t *testing.T, recorded string, exit string, mod func(*Options)) (*Tool, string) {
	t.Helper()
	td, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "claude"))
	if err != nil {
		t.Fatal(err)
	}
	rec := t.TempDir()
	root := true
	opts := Options{Path: filepath.Join(td, "fake-claude.sh"), Runner: testRunner, PassEnv: []string{"FROM_APP", "UNSET_IN_APP"},
		LookupEnv: func(k string) (string, bool) {
			if k == "FROM_APP" {
				return "app-value", true
			}
			return "", false
		},
		Root: &root,
		Env:  []string{"FAKE_CLAUDE_DIR=" + rec, "FAKE_CLAUDE_STREAM=" + filepath.Join(td, recorded, "stream.jsonl"), "FAKE_CLAUDE_EXIT=" + exit}}
	if mod != nil {
		mod(&opts)
	}
	return New(opts), rec
}

func readArgs(t *testing.T, rec string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(rec, "args.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

func runFake(t *testing.T, tool *Tool, req agent.Request) (agent.Result, []agent.Event) {
	t.Helper()
	var evs []agent.Event
	req.OnEvent = func(e agent.Event) { evs = append(evs, e) }
	if req.Dir == "" {
		req.Dir = t.TempDir()
	}
	run, err := tool.Start(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	res, err := run.Wait()
	if err != nil {
		t.Fatal(err)
	}
	return res, evs
}

func TestAdapterArgsEnvAndResult(t *testing.T) {
	tool, rec := fakeCLI(t, "tool_use", "0", nil)
	transcript := filepath.Join(t.TempDir(), "t.log")
	var out []byte
	res, evs := runFake(t, tool, agent.Request{Prompt: "- Do it.", SystemPrompt: "- You develop.", Model: "opus",
		ResumeSession: "sess-1", Env: []string{"REQ_VAR=1"}, TranscriptPath: transcript, ReadDirs: []string{"/data/attachments/t1"},
		OnOutput: func(b []byte) { out = append(out, b...) }})
	if res.Failed() || !strings.HasPrefix(res.Report, "Wrote hello.txt.") || len(res.SessionID) != 36 || !res.Usage.CostKnown {
		t.Fatalf("result %+v", res)
	}
	if !slices.Equal(res.Questions, []string{"Keep the trailing newline?"}) || evs[len(evs)-1].Kind != agent.EventQuestion {
		t.Fatalf("questions %q, last event %+v", res.Questions, evs[len(evs)-1])
	}
	want := []string{"-p", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions",
		"--model=opus", "--append-system-prompt=- You develop.", "--resume=sess-1", "--add-dir=/data/attachments/t1", "--", "- Do it."}
	if got := readArgs(t, rec); !slices.Equal(got, want) {
		t.Fatalf("args %q", got)
	}
	env, _ := os.ReadFile(filepath.Join(rec, "env.txt"))
	for _, kv := range []string{"IS_SANDBOX=1", "FROM_APP=app-value", "REQ_VAR=1"} {
		if !strings.Contains(string(env), kv+"\n") {
			t.Fatalf("env lacks %s", kv)
		}
	}
	if strings.Contains(string(env), "UNSET_IN_APP") {
		t.Fatal("unset variable passed")
	}
	if b, _ := os.ReadFile(transcript); len(b) == 0 || !strings.Contains(string(out), `"type":"result"`) {
		t.Fatal("no transcript or raw output")
	}
}

func TestAdapterNotRootHasNoSandboxVar(t *testing.T) {
	tool, rec := fakeCLI(t, "success", "0", func(o *Options) { f := false; o.Root = &f })
	if res, _ := runFake(t, tool, agent.Request{Prompt: "x"}); res.Failed() {
		t.Fatalf("result %+v", res)
	}
	if env, _ := os.ReadFile(filepath.Join(rec, "env.txt")); strings.Contains(string(env), "IS_SANDBOX") {
		t.Fatal("IS_SANDBOX set for a non-root user")
	}
	if args := strings.Join(readArgs(t, rec), " "); strings.Contains(args, "--model") || strings.Contains(args, "--resume") || strings.Contains(args, "--append-system-prompt") || strings.Contains(args, "--add-dir") {
		t.Fatalf("empty fields became flags: %q", args)
	}
}

func TestAdapterErrors(t *testing.T) {
	cases := []struct {
		recorded  string
		text      string
		transient bool
	}{
		{"error_529", "API Error: 529 Overloaded", true},
		{"error_refused", "ConnectionRefused", true},
		{"not_logged_in", "Not logged in", false},
		{"max_turns", "Reached maximum number of turns", false},
	}
	for _, c := range cases {
		t.Run(c.recorded, func(t *testing.T) {
			tool, _ := fakeCLI(t, c.recorded, "1", nil)
			res, _ := runFake(t, tool, agent.Request{Prompt: "x"})
			if !res.Failed() || res.ExitCode != 1 || res.Transient != c.transient || !strings.Contains(res.ErrorText, c.text) || res.Report != "" {
				t.Fatalf("result %+v", res)
			}
		})
	}
}

func TestAdapterNoResultLine(t *testing.T) {
	stream := filepath.Join(t.TempDir(), "stream.jsonl")
	if err := os.WriteFile(stream, []byte("Error: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tool, _ := fakeCLI(t, "success", "1", func(o *Options) { o.Env = append(o.Env, "FAKE_CLAUDE_STREAM="+stream) })
	res, _ := runFake(t, tool, agent.Request{Prompt: "x"})
	if !res.Failed() || res.Transient || !strings.Contains(res.ErrorText, "root/sudo") {
		t.Fatalf("result %+v", res)
	}
}

func TestAdapterStdinModeClosesInputAfterResult(t *testing.T) {
	tool, rec := fakeCLI(t, "success", "0", func(o *Options) { o.MidRunInput = true })
	if !tool.Capabilities().MidRunInput {
		t.Fatal("capability not declared")
	}
	run, err := tool.Start(context.Background(), agent.Request{Prompt: "Line one\nline \"two\"", Dir: t.TempDir(), Grace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := run.Wait() // returns only because the adapter closed stdin after the result
	if res.Failed() || res.Report != "All done.\n\nVERDICT: APPROVE" {
		t.Fatalf("result %+v", res)
	}
	args := readArgs(t, rec)
	if !slices.Contains(args, "--input-format") || slices.Contains(args, "Line one\nline \"two\"") || slices.Contains(args, "--") {
		t.Fatalf("args %q", args)
	}
	in, _ := os.ReadFile(filepath.Join(rec, "stdin.txt"))
	if string(in) != `{"type":"user","message":{"role":"user","content":"Line one\nline \"two\""}}`+"\n" {
		t.Fatalf("stdin %q", in)
	}
	if err := run.Send("late"); !errors.Is(err, agent.ErrRunDone) {
		t.Fatalf("send after end: %v", err)
	}
}

func TestAdapterLargePromptGoesThroughStdin(t *testing.T) {
	tool, rec := fakeCLI(t, "success", "0", nil)
	big := strings.Repeat("x", stdinPromptAbove+1)
	run, err := tool.Start(context.Background(), agent.Request{Prompt: big, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Send("steer"); !errors.Is(err, agent.ErrNoMidRunInput) {
		t.Fatalf("send without capability: %v", err)
	}
	if res, _ := run.Wait(); res.Failed() {
		t.Fatalf("result %+v", res)
	}
	if in, _ := os.ReadFile(filepath.Join(rec, "stdin.txt")); !strings.Contains(string(in), big) {
		t.Fatal("prompt did not arrive on stdin")
	}
}

func TestAdapterStopAndBadRequests(t *testing.T) {
	// Without a result line the fake CLI in stdin mode waits for EOF forever.
	stream := filepath.Join(t.TempDir(), "stream.jsonl")
	if err := os.WriteFile(stream, []byte(`{"type":"system","subtype":"init","session_id":"s-1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tool, _ := fakeCLI(t, "success", "0", func(o *Options) {
		o.MidRunInput = true
		o.Env = append(o.Env, "FAKE_CLAUDE_STREAM="+stream)
	})
	session := make(chan struct{})
	run, err := tool.Start(context.Background(), agent.Request{Prompt: "x", Dir: t.TempDir(), Grace: time.Second,
		OnEvent: func(e agent.Event) {
			if e.Kind == agent.EventSession {
				close(session)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	<-session
	if err := run.Send("steer"); err != nil {
		t.Fatalf("send while live: %v", err)
	}
	run.Stop(proc.ReasonStopped)
	if res, _ := run.Wait(); res.StopReason != proc.ReasonStopped || res.Transient || res.SessionID != "s-1" {
		t.Fatalf("stopped result %+v", res)
	}
	if _, err := New(Options{Path: filepath.Join(t.TempDir(), "claude"), Runner: testRunner}).Start(context.Background(), agent.Request{Prompt: "x", Dir: t.TempDir()}); !errors.Is(err, agent.ErrNotInstalled) {
		t.Fatalf("missing binary: %v", err)
	}
	for name, req := range map[string]agent.Request{
		"no dir":       {Prompt: "x"},
		"empty prompt": {Prompt: " \n", Dir: t.TempDir()},
		"nul byte":     {Prompt: "a\x00b", Dir: t.TempDir()},
	} {
		if _, err := tool.Start(context.Background(), req); err == nil {
			t.Fatalf("%s accepted", name)
		}
	}
}

func TestModels(t *testing.T) {
	ms := New(Options{Models: []string{"claude-custom", "sonnet", " "}}).Models(context.Background())
	ids := map[string]string{}
	for _, m := range ms {
		ids[m.ID] = m.Source
	}
	if ids["sonnet"] != agent.ModelSourceBuiltin || ids["opus"] != agent.ModelSourceBuiltin || ids["claude-custom"] != agent.ModelSourceSettings || len(ids) != len(ms) {
		t.Fatalf("models %+v", ms)
	}
}
