//go:build record

package claude

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
)

// TestRecord re-records testdata/claude/<case>/stream.jsonl from real runs of
// the claude CLI against the fake model server:
//
//	BOOF_CLAUDE_BIN=$(scripts/install-clis.sh DIR)/claude go test -tags record -run TestRecord ./backend/agent/claude
//
// Paths, session ids and dates in the output differ per run; the parser
// tests only rely on what is stable.
func TestRecord(t *testing.T) {
	bin := os.Getenv("BOOF_CLAUDE_BIN")
	if bin == "" {
		t.Skip("BOOF_CLAUDE_BIN not set")
	}
	out := filepath.Join("..", "..", "..", "testdata", "claude")
	write := func(name string) fakemodel.ToolCall {
		return fakemodel.ToolCall{Name: "Write", Input: map[string]any{"file_path": name, "content": "hello\n"}}
	}
	cases := []struct {
		name    string
		replies func(dir string) []fakemodel.Reply
		env     []string
		args    []string
		noKey   bool
		deadURL bool
	}{
		{name: "success", replies: func(string) []fakemodel.Reply {
			return []fakemodel.Reply{{Text: "All done.\n\nVERDICT: APPROVE", InputTokens: 100, OutputTokens: 20, CacheReadTokens: 50}}
		}},
		{name: "tool_use", replies: func(dir string) []fakemodel.Reply {
			return []fakemodel.Reply{
				{Text: "I'll write the file.", ToolCalls: []fakemodel.ToolCall{write(filepath.Join(dir, "hello.txt"))}},
				{ToolCalls: []fakemodel.ToolCall{{Name: "Bash", Input: map[string]any{"command": "cat hello.txt && false", "description": "show it"}}}},
				{Text: "Wrote hello.txt.\n\n## Questions for the user\n- Keep the trailing newline?\n"},
			}
		}},
		{name: "retry", env: []string{"CLAUDE_CODE_MAX_RETRIES=3"}, replies: func(string) []fakemodel.Reply {
			return []fakemodel.Reply{{Status: 529}, {Status: 503}, {Text: "Recovered."}}
		}},
		{name: "error_529", env: []string{"CLAUDE_CODE_MAX_RETRIES=0"}, replies: func(string) []fakemodel.Reply {
			return []fakemodel.Reply{{Status: 529}}
		}},
		{name: "error_503", env: []string{"CLAUDE_CODE_MAX_RETRIES=0"}, replies: func(string) []fakemodel.Reply {
			return []fakemodel.Reply{{Status: 503}}
		}},
		{name: "error_auth", env: []string{"CLAUDE_CODE_MAX_RETRIES=0"}, replies: func(string) []fakemodel.Reply {
			return []fakemodel.Reply{{Status: 401, ErrorMessage: "invalid x-api-key"}}
		}},
		{name: "error_refused", env: []string{"CLAUDE_CODE_MAX_RETRIES=0"}, deadURL: true},
		{name: "not_logged_in", noKey: true},
		{name: "max_turns", args: []string{"--max-turns", "1"}, replies: func(dir string) []fakemodel.Reply {
			return []fakemodel.Reply{{Text: "Writing.", ToolCalls: []fakemodel.ToolCall{write(filepath.Join(dir, "a.txt"))}}, {Text: "never"}}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := fakemodel.Start(t)
			dir := t.TempDir()
			if c.replies != nil {
				srv.Enqueue(c.replies(dir)...)
			}
			url := srv.URL()
			if c.deadURL {
				url = "http://127.0.0.1:9"
			}
			env := []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "IS_SANDBOX=1",
				"ANTHROPIC_BASE_URL=" + url, "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
				"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1"}
			if !c.noKey {
				env = append(env, "ANTHROPIC_API_KEY=sk-ant-fake-key")
			}
			env = append(env, c.env...)
			args := append([]string{"-p", "Do the task.", "--output-format", "stream-json", "--verbose",
				"--model", "sonnet", "--dangerously-skip-permissions", "--append-system-prompt", "You are the developer."}, c.args...)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Dir, cmd.Env = dir, env
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			t.Logf("exit %v, stderr %q", err, stderr.String())
			cdir := filepath.Join(out, c.name)
			if err := os.MkdirAll(cdir, 0o755); err != nil {
				t.Fatal(err)
			}
			// Make the output independent of the temp dirs of this run.
			clean := strings.ReplaceAll(stdout.String(), dir, "/work/repo")
			clean = strings.ReplaceAll(clean, srv.URL(), "http://127.0.0.1:PORT")
			if err := os.WriteFile(filepath.Join(cdir, "stream.jsonl"), []byte(clean), 0o644); err != nil {
				t.Fatal(err)
			}
			exit := "0"
			if ee, ok := err.(*exec.ExitError); ok {
				exit = strings.TrimPrefix(ee.String(), "exit status ")
			}
			meta := "exit: " + exit + "\nstderr: " + strings.ReplaceAll(stderr.String(), "\n", "\\n") + "\n"
			if err := os.WriteFile(filepath.Join(cdir, "meta.txt"), []byte(meta), 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestRecordPTY re-records testdata/claude/pty_tool_use/transcript.raw: the
// raw PTY bytes of a real claude step run through the adapter.
func TestRecordPTY(t *testing.T) {
	bin := os.Getenv("BOOF_CLAUDE_BIN")
	if bin == "" {
		t.Skip("BOOF_CLAUDE_BIN not set")
	}
	srv := fakemodel.Start(t)
	dir := t.TempDir()
	srv.Enqueue(
		fakemodel.Reply{Text: "Writing.", ToolCalls: []fakemodel.ToolCall{{Name: "Write", Input: map[string]any{"file_path": filepath.Join(dir, "a.txt"), "content": "a\n"}}}},
		fakemodel.Reply{Text: "Done.\n\nVERDICT: APPROVE", InputTokens: 50, OutputTokens: 5},
	)
	tmp := filepath.Join(t.TempDir(), "transcript.raw")
	tool := New(Options{Path: bin, Runner: testRunner, PassEnv: []string{}, Env: []string{"HOME=" + t.TempDir(),
		"ANTHROPIC_BASE_URL=" + srv.URL(), "ANTHROPIC_API_KEY=sk-ant-fake-key", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1"}})
	run, err := tool.Start(context.Background(), agent.Request{Prompt: "Write a.txt.", Dir: dir, TranscriptPath: tmp})
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := run.Wait(); res.Failed() {
		t.Fatalf("%+v", res)
	}
	raw, err := os.ReadFile(tmp)
	if err != nil {
		t.Fatal(err)
	}
	raw = bytes.ReplaceAll(raw, []byte(dir), []byte("/work/repo"))
	cdir := filepath.Join("..", "..", "..", "testdata", "claude", "pty_tool_use")
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cdir, "transcript.raw"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
}
