package qwen

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/openaicli/clitest"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// fakeTool returns a qwen tool whose executable is a script with body and
// whose sessions live under a temp HOME.
func fakeTool(t *testing.T, body string) (*Tool, string) {
	t.Helper()
	home := t.TempDir()
	return New(Options{Path: clitest.Script(t, "qwen", body), Runner: clitest.Runner(t), LookupEnv: clitest.NoEnv, TempDir: t.TempDir(),
		Env: []string{"HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin"}}), home
}

// The bad inputs of a CLI: each ends the step with a clear message, never
// a hang, and leaves no process behind.
func TestBadCLI(t *testing.T) {
	clitest.CheckBadCLIs(t, func(t *testing.T, body string) agent.Tool { c, _ := fakeTool(t, body); return c }, []clitest.BadCLI{
		{Name: "prints garbage", Body: `printf 'garbage \033[31m★\n{"type":"assistant"\n'; exit 0`,
			Want: `qwen ended without a result: garbage ★ | {"type":"assistant"`},
		{Name: "exits at once", Body: `echo 'node: cannot start' >&2; exit 3`,
			Want: "qwen ended without a result: node: cannot start"},
		{Name: "an old qwen", Body: `echo 'Unknown arguments: session-id, sessionId' >&2; exit 1`,
			Want: "tested with qwen " + TestedVersion},
	})
}

func TestMissingCLI(t *testing.T) {
	c := New(Options{Path: "/nowhere/qwen", Runner: clitest.Runner(t), LookupEnv: clitest.NoEnv, Env: []string{"HOME=" + t.TempDir()}})
	if _, err := c.Start(context.Background(), agent.Request{Prompt: "x", Dir: t.TempDir()}); !errors.Is(err, agent.ErrNotInstalled) {
		t.Fatalf("start: %v", err)
	}
	if h := c.Health(context.Background(), ""); h.Installed || !strings.Contains(h.Error, "/nowhere/qwen") {
		t.Fatalf("health %+v", h)
	}
	c = New(Options{Runner: clitest.Runner(t), LookupEnv: clitest.NoEnv, Env: []string{"PATH=" + t.TempDir()}})
	if h := c.Health(context.Background(), ""); h.Installed || !strings.Contains(h.Error, `"qwen" not found in PATH`) {
		t.Fatalf("health %+v", h)
	}
}

func TestHealthRefusesAnOldOrBrokenQwen(t *testing.T) {
	c, _ := fakeTool(t, `echo 0.9.1`)
	if h := c.Health(context.Background(), ""); !h.Installed || h.Version != "0.9.1" || h.Authenticated ||
		!strings.Contains(h.Error, "qwen 0.9.1 is too old: Boof Runner needs 0.24 or later") {
		t.Fatalf("old: %+v", h)
	}
	c, _ = fakeTool(t, `echo 'garbage'`)
	if h := c.Health(context.Background(), ""); h.Installed || !strings.Contains(h.Error, "printed no version") {
		t.Fatalf("garbage: %+v", h)
	}
}

// Two runs never share a session's files: a session that is running
// cannot be resumed by another run meanwhile (a clear error, nothing
// started), and can once the first run has ended.
func TestSessionInUseIsRefused(t *testing.T) {
	c, home := fakeTool(t, `exec sleep 600`)
	id, _ := newSessionID()
	h, err := openHome(filepath.Join(home, ".local", "state", "boof-runner", Name), id, false)
	if err != nil {
		t.Fatal(err)
	}
	h.close()
	dir := t.TempDir()
	first, err := c.Start(context.Background(), agent.Request{Role: task.RoleDeveloper, Prompt: "x", Dir: dir, ResumeSession: id, Grace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Start(context.Background(), agent.Request{Prompt: "y", Dir: dir, ResumeSession: id}); !errors.Is(err, ErrSessionBusy) ||
		!strings.Contains(err.Error(), "session is in use by another run") {
		t.Fatalf("second run of the session: %v", err)
	}
	first.Stop(proc.ReasonStopped)
	if res, _ := first.Wait(); res.StopReason != proc.ReasonStopped {
		t.Fatalf("first run %+v", res)
	}
	second, err := c.Start(context.Background(), agent.Request{Prompt: "y", Dir: dir, ResumeSession: id, Grace: time.Second})
	if err != nil {
		t.Fatalf("after the first run ended: %v", err)
	}
	second.Stop(proc.ReasonStopped)
	_, _ = second.Wait()
	if _, err := c.Start(context.Background(), agent.Request{Prompt: "y", Dir: dir, ResumeSession: "11111111-2222-4333-8444-555555555555"}); !errors.Is(err, ErrSessionGone) {
		t.Fatalf("a session never made: %v", err)
	}
}

// A new session whose qwen recorded nothing leaves no home behind.
func TestFailedNewSessionLeavesNoHome(t *testing.T) {
	c, home := fakeTool(t, `exit 1`)
	res, _ := clitest.RunStep(t, c, agent.Request{})
	if !res.Failed() || res.SessionID != "" {
		t.Fatalf("result %+v", res)
	}
	ents, _ := os.ReadDir(filepath.Join(home, ".local", "state", "boof-runner", Name))
	if len(ents) != 0 {
		t.Fatalf("homes left: %v", ents)
	}
}

func TestStartRefusesBadRequests(t *testing.T) {
	c, _ := fakeTool(t, `exit 0`)
	for _, tc := range []struct {
		req  agent.Request
		want error
	}{
		{agent.Request{Prompt: "x"}, ErrNoDir},
		{agent.Request{Prompt: "  ", Dir: "."}, ErrEmptyPrompt},
		{agent.Request{Prompt: "a\x00b", Dir: "."}, ErrBadText},
		{agent.Request{Prompt: "x", Dir: ".", Model: "-m"}, ErrBadModel},
		{agent.Request{Prompt: "x", Dir: ".", ResumeSession: "../../etc"}, ErrBadSession},
	} {
		if _, err := c.Start(context.Background(), tc.req); !errors.Is(err, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.req, err, tc.want)
		}
	}
}
