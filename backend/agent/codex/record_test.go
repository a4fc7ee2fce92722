//go:build unix && record

package codex

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/fakemodel"
)

// TestRecord re-records testdata/codex/<case>/ from real runs of the codex
// CLI against the fake model server:
//
//	BOOF_CODEX_BIN=$(scripts/install-clis.sh DIR)/codex go test -tags record -run TestRecord ./backend/agent/codex
//
// Each case holds stream.jsonl (stdout), last.txt (the -o file, absent when
// codex wrote none) and meta.txt (exit status and stderr). Thread ids differ
// per run; temp paths and the server port are replaced by fixed strings.
func TestRecord(t *testing.T) {
	bin := os.Getenv("BOOF_CODEX_BIN")
	if bin == "" {
		t.Skip("BOOF_CODEX_BIN not set")
	}
	out := filepath.Join("..", "..", "..", "testdata", "codex")
	patch := fakemodel.ExecCommand("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\nEOF\n")
	cases := []struct {
		name    string
		model   string
		replies []fakemodel.Reply
		config  []string
		noKey   bool
		deadURL bool
		resume  bool
		kill    time.Duration
	}{
		{name: "success", replies: []fakemodel.Reply{{Text: "All done.\n\nVERDICT: APPROVE", InputTokens: 100, CacheReadTokens: 40, OutputTokens: 20}}},
		{name: "file_change", replies: []fakemodel.Reply{
			{Text: "Adding the file.", ToolCalls: []fakemodel.ToolCall{patch}},
			{ToolCalls: []fakemodel.ToolCall{fakemodel.ExecCommand("cat hello.txt && false")}},
			{Text: "Wrote hello.txt.\n\n## Questions for the user\n- Keep the trailing newline?\n", InputTokens: 30, OutputTokens: 11},
		}},
		{name: "failure_503", config: []string{"model_providers.fake.stream_max_retries=0"}, replies: []fakemodel.Reply{{Status: 503}}},
		{name: "retry", replies: []fakemodel.Reply{{Status: 503}, {Status: 502}, {Text: "Recovered."}}},
		{name: "nonfatal_error", model: "gpt-5", replies: []fakemodel.Reply{{Text: "Fine anyway."}}},
		{name: "no_key", noKey: true},
		{name: "unreachable", deadURL: true, kill: 12 * time.Second},
		{name: "resume", resume: true, replies: []fakemodel.Reply{{Text: "First turn.", InputTokens: 100, OutputTokens: 10}, {Text: "Second turn.", InputTokens: 150, CacheReadTokens: 90, OutputTokens: 5}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := fakemodel.Start(t)
			srv.Enqueue(c.replies...)
			dir := gitRepo(t)
			home, env := codexHome(t)
			if !c.noKey {
				env = append(env, "FAKE_KEY=sk-fake-key")
			}
			url := srv.URL()
			if c.deadURL {
				url = "http://127.0.0.1:9"
			}
			model := c.model
			if model == "" {
				model = "gpt-6.2-sol"
			}
			cfg := configArgs(append(fakeProvider(url), c.config...))
			last := filepath.Join(t.TempDir(), "last.txt")
			run := func(args []string) (string, string, error) {
				kill := c.kill
				if kill == 0 {
					kill = 60 * time.Second
				}
				ctx, cancel := context.WithTimeout(context.Background(), kill)
				defer cancel()
				cmd := exec.CommandContext(ctx, bin, args...)
				cmd.Dir, cmd.Env = dir, env
				// The npm wrapper starts the native binary: end the whole group.
				cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
				cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
				cmd.WaitDelay = 5 * time.Second
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				t.Logf("exit %v, stderr %q", err, stderr.String())
				return stdout.String(), stderr.String(), err
			}
			args := append([]string{"exec", "--json", "--dangerously-bypass-approvals-and-sandbox", "-C", dir, "-m", model, "-o", last}, cfg...)
			stdout, stderr, err := run(append(args, "Do the task."))
			cdir := filepath.Join(out, c.name)
			if err := os.MkdirAll(cdir, 0o755); err != nil {
				t.Fatal(err)
			}
			clean := func(s string) string {
				s = strings.ReplaceAll(s, dir, "/work/repo")
				s = strings.ReplaceAll(s, home, "/home/user")
				return strings.ReplaceAll(s, srv.URL(), "http://127.0.0.1:PORT")
			}
			if c.resume {
				id := threadID(t, stdout)
				write(t, filepath.Join(cdir, "first.jsonl"), clean(stdout))
				_ = os.Remove(last)
				rargs := append([]string{"exec", "resume", "--json", "--dangerously-bypass-approvals-and-sandbox", "-m", model, "-o", last}, cfg...)
				stdout, stderr, err = run(append(rargs, id, "Continue."))
			}
			write(t, filepath.Join(cdir, "stream.jsonl"), clean(stdout))
			if b, rerr := os.ReadFile(last); rerr == nil {
				write(t, filepath.Join(cdir, "last.txt"), string(b))
			} else {
				_ = os.Remove(filepath.Join(cdir, "last.txt"))
			}
			exit := "0"
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				exit = strconv.Itoa(ee.ExitCode())
			}
			write(t, filepath.Join(cdir, "meta.txt"), "exit: "+exit+"\nstderr: "+strings.ReplaceAll(clean(stderr), "\n", "\\n")+"\n")
		})
	}
}

func threadID(t *testing.T, stdout string) string {
	t.Helper()
	p := NewParser(nil, ThreadUsage{})
	for _, l := range strings.Split(stdout, "\n") {
		p.Line([]byte(l))
	}
	if p.SessionID() == "" {
		t.Fatalf("no thread id in %q", stdout)
	}
	return p.SessionID()
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRecordPTY re-records testdata/codex/pty_file_change/pty.log: the raw
// PTY transcript of a real codex step run through this adapter and the
// runner (stdout and stderr merged, as the parser sees them in the app).
func TestRecordPTY(t *testing.T) {
	bin := os.Getenv("BOOF_CODEX_BIN")
	if bin == "" {
		t.Skip("BOOF_CODEX_BIN not set")
	}
	srv := fakemodel.Start(t)
	srv.Enqueue(
		fakemodel.Reply{Text: "Writing.", ToolCalls: []fakemodel.ToolCall{fakemodel.ExecCommand("printf 'hi\\n' > hi.txt && ls")}},
		fakemodel.Reply{Text: "Wrote hi.txt.\n\nVERDICT: APPROVE", InputTokens: 70, CacheReadTokens: 30, OutputTokens: 12},
	)
	home, env := codexHome(t)
	c := New(Options{Runner: newRunner(t), Path: bin, Env: append(env, "FAKE_KEY=sk-fake-key"),
		ConfigOverrides: fakeProvider(srv.URL()), Getenv: func(string) string { return "" }, TempDir: t.TempDir()})
	dir := gitRepo(t)
	log := filepath.Join(t.TempDir(), "pty.log")
	run, err := c.Start(context.Background(), agent.Request{Prompt: "Write hi.txt.", SystemPrompt: "You are the developer.",
		Model: "gpt-6.2-sol", Dir: dir, TranscriptPath: log, MaxRuntime: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := run.Wait(); res.Failed() {
		t.Fatalf("step failed: %+v", res)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(b), dir, "/work/repo")
	s = strings.ReplaceAll(s, home, "/home/user")
	s = strings.ReplaceAll(s, srv.URL(), "http://127.0.0.1:PORT")
	cdir := filepath.Join("..", "..", "..", "testdata", "codex", "pty_file_change")
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(cdir, "pty.log"), s)
}
