//go:build record

package gemini

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
)

// reportRe finds the error report gemini writes to the temp directory.
var reportRe = regexp.MustCompile(`/tmp/gemini-client-error-[^ ]*\.json`)

// TestRecord re-records testdata/gemini/<case>/stream.jsonl (gemini's
// stdout) and meta.txt (its exit status and stderr) from real runs of the
// gemini CLI against the fake model server, each in a config directory
// made as a step makes it:
//
//	BOOF_GEMINI_BIN=$(scripts/install-clis.sh DIR)/gemini go test -tags record -run TestRecord ./backend/agent/gemini
//
// Session ids, dates, ports and temp paths differ per run; the tests only
// rely on what is stable.
func TestRecord(t *testing.T) {
	bin := os.Getenv("BOOF_GEMINI_BIN")
	if bin == "" {
		t.Skip("BOOF_GEMINI_BIN not set")
	}
	out := filepath.Join("..", "..", "..", "testdata", "gemini")
	cases := []struct {
		name     string
		replies  []fakemodel.Reply
		attempts int
		noKey    bool
		deadURL  bool
	}{
		{name: "success", replies: []fakemodel.Reply{{Text: "All done.\n\nVERDICT: APPROVE", InputTokens: 100, OutputTokens: 20, CacheReadTokens: 50}}},
		{name: "tool_use", replies: []fakemodel.Reply{
			{Text: "I'll write the file.", ToolCalls: []fakemodel.ToolCall{{Name: "write_file", Input: map[string]any{"file_path": "hello.txt", "content": "hello\n"}}}},
			{ToolCalls: []fakemodel.ToolCall{{Name: "run_shell_command", Input: map[string]any{"command": "cat hello.txt && false", "description": "show it"}}}},
			{Text: "Wrote hello.txt.\n\n## Questions for the user\n- Keep the trailing newline?\n", InputTokens: 300, OutputTokens: 40},
		}},
		{name: "usage_limit", replies: []fakemodel.Reply{fakemodel.GeminiUsageLimit(time.Now().Add(time.Hour))}},
		{name: "daily_quota", replies: []fakemodel.Reply{fakemodel.GeminiDailyQuota()}},
		{name: "error_503", attempts: 1, replies: []fakemodel.Reply{{Status: 503, ErrorMessage: "The model is overloaded. Please try again later."}}},
		{name: "error_auth", attempts: 1, replies: []fakemodel.Reply{{Status: 400, ErrorType: "INVALID_ARGUMENT",
			ErrorMessage: "API key not valid. Please pass a valid API key."}}},
		{name: "error_refused", attempts: 1, deadURL: true},
		{name: "no_key", noKey: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := fakemodel.Start(t)
			srv.Enqueue(c.replies...)
			url := srv.URL()
			if c.deadURL {
				url = "http://127.0.0.1:9"
			}
			dir := t.TempDir()
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "GOOGLE_GEMINI_BASE_URL=" + url}
			if !c.noKey {
				env = append(env, "GEMINI_API_KEY=fake-gemini-key")
			}
			tool := New(Options{StateDir: t.TempDir(), Getenv: func(string) string { return "" }})
			h, err := tool.openHome(dir, env, homeConfig{maxAttempts: c.attempts}, false)
			if err != nil {
				t.Fatal(err)
			}
			defer h.close()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "--output-format", "stream-json", "--skip-trust", "--yolo",
				"--model=gemini-2.5-flash", "--prompt=Write hello.txt, then show it.")
			cmd.Dir, cmd.Env = dir, append(env, h.env()...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err = cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			cd := filepath.Join(out, c.name)
			if err := os.MkdirAll(cd, 0o755); err != nil {
				t.Fatal(err)
			}
			stream := strings.ReplaceAll(stdout.String(), dir, "/work/repo")
			if err := os.WriteFile(filepath.Join(cd, "stream.jsonl"), []byte(stream), 0o644); err != nil {
				t.Fatal(err)
			}
			errText := reportRe.ReplaceAllString(strings.ReplaceAll(stderr.String(), dir, "/work/repo"), "/tmp/gemini-client-error.json")
			meta := fmt.Sprintf("exit %d\n--- stderr\n%s", code, errText)
			if err := os.WriteFile(filepath.Join(cd, "meta.txt"), []byte(meta), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: exit %d, %d requests", c.name, code, len(srv.GeminiGenerateRequests()))
		})
	}
}
