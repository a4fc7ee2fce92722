package host_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// TestMain makes this test binary the mock agent when run with
// mock.AgentCommand, as the app binary is.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == mock.AgentCommand {
		os.Exit(mock.Main(os.Args[2:], os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// fakeBins puts executables named names in a fresh directory and makes it
// the whole PATH.
func fakeBins(t *testing.T, names ...string) {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
}

func newPaths(t *testing.T) dataroot.Paths {
	t.Helper()
	p := dataroot.Paths{Root: t.TempDir()}
	if err := dataroot.Ensure(p.Root); err != nil {
		t.Fatal(err)
	}
	return p
}

// Every adapter's tool is what the adapter declares: its name and its
// capabilities.
func TestAdaptersDeclareTheirTools(t *testing.T) {
	procs := proc.NewRunner(proc.RunnerOptions{})
	defer procs.Shutdown(time.Second)
	for _, a := range host.Adapters() {
		tl := a.New(agent.Config{Runner: procs, Exe: os.Args[0], StateDir: t.TempDir()})
		if tl.Name() != a.Name || tl.Capabilities() != a.Capabilities {
			t.Errorf("adapter %s builds %s with %+v, declares %+v", a.Name, tl.Name(), tl.Capabilities(), a.Capabilities)
		}
		if host.MidRunInput(a.Name) != a.Capabilities.MidRunInput {
			t.Errorf("MidRunInput(%s) differs from its capabilities", a.Name)
		}
	}
	if host.MidRunInput("vim") || host.Installed("vim") {
		t.Error("an unknown tool takes mid-run input or is installed")
	}
}

// The role default is the first installed CLI in preference order; the
// mock, part of the app, is the fallback.
func TestCatalogPrefersInstalledCLIs(t *testing.T) {
	cat := host.Catalog()
	if want := []string{"claude-code", "codex", "gemini", "opencode", "qwen-code", "mock"}; !reflect.DeepEqual(cat.Names, want) {
		t.Fatalf("names %v, want %v", cat.Names, want)
	}
	if want := []string{"claude-code", "codex", "gemini", "opencode", "qwen-code"}; !reflect.DeepEqual(cat.Configurable, want) {
		t.Fatalf("configurable %v, want %v", cat.Configurable, want)
	}
	if want := []string{"claude-code", "codex", "gemini", "opencode", "qwen-code"}; !reflect.DeepEqual(cat.SwitchOrder, want) {
		t.Fatalf("switch order %v, want %v", cat.SwitchOrder, want)
	}
	for _, c := range []struct {
		bins []string
		want string
	}{
		{[]string{"claude", "codex"}, "claude-code"},
		{[]string{"codex"}, "codex"},
		{[]string{"gemini", "codex"}, "codex"},
		{[]string{"gemini"}, "gemini"},
		{[]string{"qwen", "opencode"}, "opencode"},
		{[]string{"qwen"}, "qwen-code"},
		{nil, "mock"},
	} {
		fakeBins(t, c.bins...)
		if got := host.Catalog().Default(); got != c.want {
			t.Errorf("with %v installed the default is %s, want %s", c.bins, got, c.want)
		}
		s, err := host.SettingsFile(newPaths(t)).Load()
		if err != nil || s.DefaultTool != c.want || s.Roles.Developer.Tool != c.want {
			t.Errorf("with %v installed settings default to %s (developer %s), %v", c.bins, s.DefaultTool, s.Roles.Developer.Tool, err)
		}
	}
}

// Tools hands each configurable CLI its settings path and env, runs the
// mock as the app binary's agent command, and prices steps by each
// adapter's own table.
func TestToolsFromSettings(t *testing.T) {
	fakeBins(t)
	paths := newPaths(t)
	f := host.SettingsFile(paths)
	for k, v := range map[string]string{"tools.codex.path": "/nowhere/codex", "tools.claude-code.path": "/nowhere/claude",
		"tools.gemini.path": "/nowhere/gemini"} {
		if _, err := f.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	set, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	procs := proc.NewRunner(proc.RunnerOptions{})
	defer procs.Shutdown(time.Second)
	reg := host.Tools(set, procs, os.Args[0], paths)
	if got := reg.Names(); !reflect.DeepEqual(got, []string{"claude-code", "codex", "gemini", "mock", "opencode", "qwen-code"}) {
		t.Fatalf("tools %v", got)
	}
	hs := agent.CheckHealth(context.Background(), reg.Tools(), nil, 20*time.Second)
	for _, h := range hs {
		switch h.Tool {
		case "opencode", "qwen-code":
			if h.Installed || !strings.Contains(h.Error, "not found in PATH") {
				t.Errorf("%s found without being installed: %+v", h.Tool, h)
			}
		case "claude-code", "codex", "gemini":
			if h.Installed || !strings.Contains(h.Error, "/nowhere/") {
				t.Errorf("%s ignored its settings path: %+v", h.Tool, h)
			}
		case "mock":
			if !h.Installed || h.Version != mock.Version || !h.Authenticated {
				t.Errorf("mock did not run as the app's agent command: %+v", h)
			}
		}
	}
	u := task.Usage{TokensIn: 1_000_000, TokensOut: 100_000}
	for _, c := range []struct {
		tool, model string
		cost        float64
		priced      bool
	}{
		{"claude-code", "claude-sonnet-4-5-20250929", 3 + 1.5, true},
		{"claude-code", "opus", 15 + 7.5, true},
		{"codex", "gpt-5-mini-2025", 0.25 + 0.2, true},
		{"codex", "gpt-5", 1.25 + 1, true},
		{"gemini", "gemini-2.5-pro", 1.25 + 1, true},
		{"gemini", "gemini-2.5-flash-lite-preview", 0.1 + 0.04, true},
		{"mock", "mock", 0, true},
		{"qwen-code", "qwen3-coder-plus", 1 + 0.5, true},
		{"opencode", "anthropic/claude-sonnet-4-5", 0, false},
		{"codex", "claude-sonnet-4", 0, false},
		{"claude-code", "", 0, false},
	} {
		got, ok := reg.EstimateCost(c.tool, c.model, u)
		if ok != c.priced || math.Abs(got-c.cost) > 1e-9 {
			t.Errorf("%s %s: cost %v %v, want %v %v", c.tool, c.model, got, ok, c.cost, c.priced)
		}
	}
}

// Open takes the data root's runner lock: a second host gets a
// *runner.LockedError until the first closes.
func TestOpenTakesTheRunnerLock(t *testing.T) {
	paths := newPaths(t)
	st, err := store.Open(context.Background(), paths.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h, err := host.Open(context.Background(), host.Options{Paths: paths, Store: st, Exe: os.Args[0]})
	if err != nil {
		t.Fatal(err)
	}
	if h.Settings.Path() != paths.Settings() || len(h.Tools.Names()) != len(host.Adapters()) {
		t.Fatalf("host settings %s tools %v", h.Settings.Path(), h.Tools.Names())
	}
	var locked *runner.LockedError
	if _, err := host.Open(context.Background(), host.Options{Paths: paths, Store: st, Exe: os.Args[0]}); !errors.As(err, &locked) {
		t.Fatalf("second open: %v", err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	h2, err := host.Open(context.Background(), host.Options{Paths: paths, Store: st, Exe: os.Args[0]})
	if err != nil {
		t.Fatalf("open after close: %v", err)
	}
	if err := h2.Close(); err != nil {
		t.Fatal(err)
	}
}
