package setup

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/intake"
)

var (
	claude = agent.Adapter{Name: "claude-code", Bin: "claude", Install: "npm install -g @anthropic-ai/claude-code", SignIn: "claude", KeyEnv: "ANTHROPIC_API_KEY"}
	codex  = agent.Adapter{Name: "codex", Bin: "codex", Install: "npm install -g @openai/codex", SignIn: "codex login", KeyEnv: "OPENAI_API_KEY"}
	mock   = agent.Adapter{Name: "mock"}
)

func kinds(ps []Problem) string {
	var out []string
	for _, p := range ps {
		out = append(out, string(p.Kind)+":"+p.Tool)
	}
	return strings.Join(out, ",")
}

func TestAssess(t *testing.T) {
	ok := agent.Health{Installed: true, Authenticated: true}
	cases := []struct {
		name  string
		tools []Tool
		err   error
		want  string
	}{
		{"nothing", []Tool{{Adapter: claude}, {Adapter: codex}, {Adapter: mock, Health: ok}}, intake.ErrNoWorkDir, "no_agent_cli:,no_repository:"},
		{"ready", []Tool{{Adapter: claude, Health: ok}, {Adapter: codex}, {Adapter: mock, Health: ok}}, nil, ""},
		{"not signed in", []Tool{{Adapter: claude, Health: agent.Health{Installed: true, Error: "claude: Not logged in · Please run /login"}}, {Adapter: codex}}, nil, "not_signed_in:claude-code"},
		{"one of two signed in", []Tool{{Adapter: claude, Health: ok}, {Adapter: codex, Health: agent.Health{Installed: true}}}, nil, "not_signed_in:codex"},
		{"unusable directory", []Tool{{Adapter: claude, Health: ok}}, &intake.RepoError{Repo: "/gone", Problem: intake.RepoMissing, FromSettings: true}, "repository_unusable:"},
		{"only the app's own tool", []Tool{{Adapter: mock, Health: ok}}, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ps := Assess(c.tools, "/gone", c.err)
			if got := kinds(ps); got != c.want {
				t.Fatalf("got %q, want %q: %+v", got, c.want, ps)
			}
			for _, p := range ps {
				if p.Message == "" || p.Fix == "" || p.Action == "" || strings.Contains(p.Message+p.Fix, "\n") ||
					!strings.HasSuffix(p.Message, ".") || !strings.HasSuffix(p.Fix, ".") {
					t.Fatalf("problem not said in one sentence each: %+v", p)
				}
			}
		})
	}
	ps := Assess(cases[0].tools, "", intake.ErrNoWorkDir)
	if strings.Join(ps[0].Commands, "|") != claude.Install+"|"+codex.Install || ps[0].Action != Install {
		t.Fatalf("install commands %+v", ps[0])
	}
	ps = Assess(cases[2].tools, "", nil)
	if ps[0].Commands[0] != "claude" || !strings.Contains(ps[0].Fix, "ANTHROPIC_API_KEY") || !strings.Contains(ps[0].Message, "Not logged in") {
		t.Fatalf("sign in: %+v", ps[0])
	}
	ps = Assess(cases[4].tools, "/gone", cases[4].err)
	if ps[0].Path != "/gone" || ps[0].Message != "The working directory /gone of the settings does not exist." {
		t.Fatalf("unusable: %+v", ps[0])
	}
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestCheckRepository(t *testing.T) {
	ctx := context.Background()
	in := intake.New(intake.Options{})
	g := gitx.New()
	repo := t.TempDir()
	gitIn(t, repo, "init", "-q", "-b", "main")
	gitIn(t, repo, "commit", "-q", "--allow-empty", "-m", "init")
	empty := t.TempDir()
	gitIn(t, empty, "init", "-q", "-b", "main")
	plain := t.TempDir()
	file := filepath.Join(plain, "f")
	os.WriteFile(file, []byte("x"), 0o644)
	cases := []struct {
		path            string
		usable, git     bool
		problemContains string
	}{
		{repo, true, true, ""},
		{filepath.Join(repo, "."), true, true, ""},
		{plain, true, false, "not a git repository"},
		{empty, false, false, "no commits"},
		{filepath.Join(plain, "nope"), false, false, "does not exist"},
		{file, false, false, "not a folder"},
		{"relative/dir", false, false, "not an absolute path"},
		{"", false, false, "Choose a repository folder"},
	}
	for _, c := range cases {
		got := CheckRepository(ctx, in, g, c.path)
		if got.Usable != c.usable || got.Git != c.git || (c.problemContains == "") != (got.Problem == "") ||
			!strings.Contains(got.Problem, c.problemContains) || strings.Contains(got.Problem, "\n") {
			t.Fatalf("%q: %+v", c.path, got)
		}
	}
	if !errors.Is(in.CheckBase(ctx, "", ""), intake.ErrNoWorkDir) {
		t.Fatal("an intake without settings has a working directory")
	}
}

// Every registered agent CLI says how to install it and sign it in (a
// command or an API key), so
// the first-launch screen can tell a new user (an adapter added without
// them would leave its problem with no fix).
func TestAdaptersSayHowToInstallAndSignIn(t *testing.T) {
	n := 0
	for _, a := range host.Adapters() {
		if a.Bin == "" {
			continue
		}
		n++
		if a.Install == "" || a.SignIn == "" && a.KeyEnv == "" { // qwen-code signs in by key only
			t.Errorf("%s: install %q, sign in %q, key %q", a.Name, a.Install, a.SignIn, a.KeyEnv)
		}
	}
	if n < 2 {
		t.Fatalf("%d agent CLIs registered", n)
	}
}

// TestNoAgentCLINamesTheChoice: the missing-CLI sentence offers the CLIs
// as a choice and names a binary only where it differs from the tool
// ("codex (codex)" read as a stutter on the first-launch screen).
func TestNoAgentCLINamesTheChoice(t *testing.T) {
	gemini := agent.Adapter{Name: "gemini", Bin: "gemini", Install: "npm install -g @google/gemini-cli"}
	for _, c := range []struct {
		tools []Tool
		want  string
	}{
		{[]Tool{{Adapter: codex}}, "No agent CLI is installed: tasks run through codex."},
		{[]Tool{{Adapter: claude}, {Adapter: codex}}, "No agent CLI is installed: tasks run through claude-code (claude) or codex."},
		{[]Tool{{Adapter: claude}, {Adapter: codex}, {Adapter: gemini}}, "No agent CLI is installed: tasks run through one of claude-code (claude), codex or gemini."},
	} {
		ps := Assess(c.tools, "/repo", nil)
		if len(ps) == 0 || ps[0].Message != c.want {
			t.Errorf("Assess(%d CLIs) = %+v, want %q", len(c.tools), ps, c.want)
		}
	}
}
