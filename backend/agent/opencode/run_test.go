package opencode

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
)

// fakeTool returns an opencode tool whose executable is a script with body,
// with a temp HOME and an endpoint so bare model ids are accepted.
func fakeTool(t *testing.T, body string) (*Tool, string) {
	t.Helper()
	home := t.TempDir()
	return New(Options{Path: clitest.Script(t, "opencode", body), Runner: clitest.Runner(t), LookupEnv: clitest.NoEnv, TempDir: t.TempDir(),
		Env: []string{"HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin", "OPENAI_BASE_URL=http://127.0.0.1:9/v1"}}), home
}

// The bad inputs of a CLI: each ends the step with a clear message, never
// a hang, and leaves no process behind.
func TestBadCLI(t *testing.T) {
	clitest.CheckBadCLIs(t, func(t *testing.T, body string) agent.Tool { c, _ := fakeTool(t, body); return c }, []clitest.BadCLI{
		{Name: "prints garbage", Body: `cat >/dev/null; printf 'garbage \033[31m★\n{"type":"text"\n'; exit 0`,
			Want: `opencode ended without finishing a step: garbage ★ | {"type":"text"`},
		{Name: "exits at once", Body: `echo 'error: cannot open the database' >&2; exit 3`,
			Want: "opencode exit status 3: error: cannot open the database"},
		{Name: "an old opencode", Body: `echo 'Unknown argument: auto' >&2; exit 1`,
			Want: "tested with opencode " + TestedVersion},
	})
}

// The prompt reaches opencode on stdin as it is; its arguments and
// environment carry the step's settings and never a key.
func TestStartPassesPromptAndConfig(t *testing.T) {
	out := filepath.Join(t.TempDir(), "seen")
	c, home := fakeTool(t, `cat > "`+out+`.stdin"; printf '%s\n' "$@" > "`+out+`.args"; env > "`+out+`.env"
echo '{"type":"step_finish","sessionID":"ses_X1","part":{"reason":"stop","tokens":{"input":3,"output":2,"reasoning":1,"cache":{"read":4,"write":0}},"cost":0.5}}'`)
	c.opts.Env = append(c.opts.Env, "OPENAI_API_KEY=sk-secret-key")
	userCfg := filepath.Join(home, ".config", "opencode")
	if err := os.MkdirAll(userCfg, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(userCfg, "opencode.json"), []byte(`{"provider": {"mine": {"models": {"x": {}}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	before := clitest.TreeState(t, userCfg)
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "opencode.json"), []byte(`{"instructions": ["PROJECT.md"], "provider": {"mine": {"name": "project's"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	project := clitest.TreeState(t, work)
	prompt := "-Review \"this\" -- carefully.\nSecond line ✓"
	res, rec := clitest.RunStep(t, c, agent.Request{Role: "reviewer", Prompt: prompt, SystemPrompt: "You are the reviewer.", Model: "m1", ReadOnly: true, Dir: work})
	if res.Failed() || res.SessionID != "ses_X1" || res.Usage != (agent.Usage{InputTokens: 3, OutputTokens: 3, CacheReadTokens: 4, CostUSD: 0.5, CostKnown: true}) {
		t.Fatalf("result %+v events %s", res, rec.Kinds())
	}
	read := func(ext string) string {
		b, err := os.ReadFile(out + ext)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := read(".stdin"); got != prompt {
		t.Fatalf("stdin %q, want the prompt verbatim", got)
	}
	args := read(".args")
	for _, want := range []string{"run\n--format\njson\n--auto\n", "--title\nBoof Runner: reviewer\n", "--model=boof/m1\n"} {
		if !strings.Contains(args, want) {
			t.Errorf("args lack %q:\n%s", want, args)
		}
	}
	env := read(".env")
	if !strings.Contains(env, "XDG_CONFIG_HOME="+filepath.Join(home, ".local", "state", "boof-runner", Name, "config")+"\n") ||
		!strings.Contains(env, `"edit":"deny"`) || !strings.Contains(env, `"apiKey":"{env:OPENAI_API_KEY}"`) ||
		!strings.Contains(env, `"models":{"m1":{"name":"m1"}}`) || !strings.Contains(env, `"instructions":["`) {
		t.Errorf("env:\n%s", env)
	}
	if strings.Count(env, "sk-secret-key") != 1 || !strings.Contains(env, "OPENAI_API_KEY=sk-secret-key") {
		t.Errorf("the key is not only in its variable:\n%s", env)
	}
	// The user's and the project's configs reach opencode as content, the
	// project's over the user's; opencode is told no file to read.
	if !strings.Contains(env, `"mine":{"models":{"x":{}},"name":"project's"}`) || !strings.Contains(env, `"instructions":["PROJECT.md","`) ||
		strings.Contains(env, "OPENCODE_CONFIG=") || !strings.Contains(env, "OPENCODE_DISABLE_PROJECT_CONFIG=1\n") {
		t.Errorf("the user's and project's configs are not in the content:\n%s", env)
	}
	if after := clitest.TreeState(t, userCfg); after != before {
		t.Errorf("the user's config changed:\n%s\n%s", before, after)
	}
	if after := clitest.TreeState(t, work); after != project {
		t.Errorf("the project's config changed:\n%s\n%s", project, after)
	}
	// The role prompt's file is gone with the step.
	if m, _ := filepath.Glob(filepath.Join(c.opts.TempDir, "opencode-role-*")); len(m) != 0 {
		t.Errorf("role prompt files left: %v", m)
	}
}

func TestMissingCLI(t *testing.T) {
	c := New(Options{Path: "/nowhere/opencode", Runner: clitest.Runner(t), LookupEnv: clitest.NoEnv, Env: []string{"HOME=" + t.TempDir()}})
	if _, err := c.Start(context.Background(), agent.Request{Prompt: "x", Dir: t.TempDir()}); !errors.Is(err, agent.ErrNotInstalled) {
		t.Fatalf("start: %v", err)
	}
	if h := c.Health(context.Background(), ""); h.Installed || !strings.Contains(h.Error, "/nowhere/opencode") {
		t.Fatalf("health %+v", h)
	}
}

func TestHealthRefusesAnOldOrBrokenOpencode(t *testing.T) {
	c, _ := fakeTool(t, `echo 1.2.27`)
	if h := c.Health(context.Background(), ""); !h.Installed || h.Version != "1.2.27" || h.Authenticated ||
		!strings.Contains(h.Error, "opencode 1.2.27 is too old: Boof Runner needs 1.18 or later") {
		t.Fatalf("old: %+v", h)
	}
	c, _ = fakeTool(t, `exit 9`)
	if h := c.Health(context.Background(), ""); h.Installed || !strings.Contains(h.Error, "opencode --version") {
		t.Fatalf("failing: %+v", h)
	}
}

// Two runs never continue one session at once: the second is refused
// with a clear error until the first has ended.
func TestSessionInUseIsRefused(t *testing.T) {
	c, _ := fakeTool(t, `exec sleep 600`)
	dir := t.TempDir()
	first, err := c.Start(context.Background(), agent.Request{Prompt: "x", Dir: dir, ResumeSession: "ses_abc", Grace: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Start(context.Background(), agent.Request{Prompt: "y", Dir: dir, ResumeSession: "ses_abc"}); !errors.Is(err, ErrSessionBusy) {
		t.Fatalf("second run of the session: %v", err)
	}
	first.Stop(proc.ReasonStopped)
	res, _ := first.Wait()
	if res.StopReason != proc.ReasonStopped || res.SessionID != "ses_abc" {
		t.Fatalf("first run %+v", res)
	}
	second, err := c.Start(context.Background(), agent.Request{Prompt: "y", Dir: dir, ResumeSession: "ses_abc", Grace: time.Second})
	if err != nil {
		t.Fatalf("after the first run ended: %v", err)
	}
	second.Stop(proc.ReasonStopped)
	_, _ = second.Wait()
}

func TestStartRefusesBadRequests(t *testing.T) {
	c, _ := fakeTool(t, `exit 0`)
	noEndpoint := New(Options{Path: c.opts.Path, Runner: c.opts.Runner, LookupEnv: clitest.NoEnv, Env: []string{"HOME=" + t.TempDir()}})
	for _, tc := range []struct {
		c    *Tool
		req  agent.Request
		want error
	}{
		{c, agent.Request{Prompt: "x"}, ErrNoDir},
		{c, agent.Request{Prompt: " ", Dir: "."}, ErrEmptyPrompt},
		{c, agent.Request{Prompt: "x", SystemPrompt: "\xff", Dir: "."}, ErrBadText},
		{c, agent.Request{Prompt: "x", Dir: ".", Model: "--pure"}, ErrBadModel},
		{noEndpoint, agent.Request{Prompt: "x", Dir: ".", Model: "gpt-5"}, ErrBadModel},
		{c, agent.Request{Prompt: "x", Dir: ".", ResumeSession: "../x"}, ErrBadSession},
	} {
		if _, err := tc.c.Start(context.Background(), tc.req); !errors.Is(err, tc.want) {
			t.Errorf("%+v: %v, want %v", tc.req, err, tc.want)
		}
	}
}

// A user config opencode could not read either is left out with a warning
// in the step's feed; the step runs.
func TestBrokenUserConfigIsLeftOutWithAWarning(t *testing.T) {
	c, home := fakeTool(t, `cat >/dev/null; echo '{"type":"step_finish","sessionID":"ses_Y","part":{"reason":"stop"}}'`)
	userCfg := filepath.Join(home, ".config", "opencode")
	if err := os.MkdirAll(userCfg, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(userCfg, "config.json"), []byte(`{"provider": `), 0o600); err != nil {
		t.Fatal(err)
	}
	res, rec := clitest.RunStep(t, c, agent.Request{})
	if res.Failed() {
		t.Fatalf("result %+v", res)
	}
	var warned bool
	for _, e := range rec.Events {
		warned = warned || (e.Kind == agent.EventRaw && e.IsError && strings.Contains(e.Text, "config.json") && strings.Contains(e.Text, "runs without it"))
	}
	if !warned {
		t.Fatalf("no warning in %s", rec.Kinds())
	}
}
