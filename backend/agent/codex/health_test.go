package codex

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
)

func TestHealthWithFakeCodex(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     []string
		timeout time.Duration
		want    agent.Health
		errHas  string
	}{
		{"healthy", []string{"FAKE_CODEX_STREAM=" + td(t, "success/stream.jsonl")}, 20 * time.Second,
			agent.Health{Installed: true, Version: "0.171.0", Authenticated: true, Reachable: true}, ""},
		{"no key", []string{"FAKE_CODEX_STREAM=" + td(t, "no_key/stream.jsonl"), "FAKE_CODEX_EXIT=1"}, 20 * time.Second,
			agent.Health{Installed: true, Version: "0.171.0"}, "Missing environment variable"},
		{"server error", []string{"FAKE_CODEX_STREAM=" + td(t, "failure_503/stream.jsonl"), "FAKE_CODEX_EXIT=1"}, 20 * time.Second,
			agent.Health{Installed: true, Version: "0.171.0", Reachable: true}, "unexpected status 503"},
		{"unreachable", []string{"FAKE_CODEX_STREAM=" + td(t, "unreachable/stream.jsonl"), "FAKE_CODEX_HANG=1"}, time.Second,
			agent.Health{Installed: true, Version: "0.171.0"}, "Reconnecting... waiting for network"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			argsFile := filepath.Join(t.TempDir(), "args")
			c := fakeTool(t, append(tc.env, "FAKE_CODEX_ARGS="+argsFile)...)
			ctx, cancel := context.WithTimeout(context.Background(), tc.timeout)
			defer cancel()
			h := c.Health(ctx, "gpt-6.2-sol")
			errText := h.Error
			tc.want.Tool, tc.want.Path, h.Error = "codex", c.opts.Path, ""
			if h != tc.want {
				t.Fatalf("health %+v\nwant   %+v", h, tc.want)
			}
			if (tc.errHas == "") != (errText == "") || !strings.Contains(errText, tc.errHas) {
				t.Fatalf("error %q, want it to hold %q", errText, tc.errHas)
			}
			a := readArgs(t, argsFile)
			joined := strings.Join(a.Args, " ")
			if !strings.Contains(joined, "--ephemeral") || !strings.Contains(joined, "-m gpt-6.2-sol") {
				t.Fatalf("smoke args %q", a.Args)
			}
		})
	}
}

func TestHealthNotInstalled(t *testing.T) {
	c := New(Options{Runner: newRunner(t), Env: []string{"PATH="}, Getenv: func(string) string { return "" }, TempDir: t.TempDir()})
	h := c.Health(context.Background(), "")
	if h.Installed || h.Authenticated || h.Reachable || h.Version != "" || h.Path != "" || !strings.Contains(h.Error, "codex not found") {
		t.Fatalf("health %+v", h)
	}
}

func TestHealthBrokenBinary(t *testing.T) {
	// An executable that is not codex: --version fails.
	c := New(Options{Runner: newRunner(t), Path: "/bin/false", Getenv: func(string) string { return "" }, TempDir: t.TempDir()})
	h := c.Health(context.Background(), "")
	if h.Installed || h.Path != "/bin/false" || !strings.Contains(h.Error, "exit status 1") {
		t.Fatalf("health %+v", h)
	}
}

func TestModelsFromCodexCatalog(t *testing.T) {
	c := fakeTool(t, "FAKE_CODEX_CATALOG="+td(t, "debug_models.json"))
	c.opts.Models = []string{"my-model", " gpt-6.2-sol ", ""}
	ms := c.Models(context.Background())
	// The 0.171.0 catalog lists 11 models and hides 3.
	if len(ms) != 12 {
		t.Fatalf("models %+v", ms)
	}
	if ms[0] != (agent.Model{ID: "gpt-6.2-sol", Label: "GPT-6.2-Sol", Source: agent.ModelSourceTool}) {
		t.Fatalf("first %+v", ms[0])
	}
	for _, m := range ms {
		if strings.Contains(m.ID, "daybreak") || m.ID == "codex-auto-review" {
			t.Fatalf("hidden model listed: %+v", m)
		}
	}
	if last := ms[len(ms)-1]; last != (agent.Model{ID: "my-model", Label: "my-model", Source: agent.ModelSourceSettings}) {
		t.Fatalf("last %+v", last)
	}
	// The built-in list matches what codex 0.171.0 lists.
	for i, m := range builtinModels {
		if ms[i].ID != m[0] || ms[i].Label != m[1] {
			t.Fatalf("builtin %d = %v, catalog has %+v", i, m, ms[i])
		}
	}
}

func TestModelsFallBackToBuiltin(t *testing.T) {
	c := fakeTool(t) // "debug models" fails
	c.opts.Models = []string{"my-model"}
	ms := c.Models(context.Background())
	if len(ms) != len(builtinModels)+1 || ms[0].Source != agent.ModelSourceBuiltin || ms[len(ms)-1].ID != "my-model" {
		t.Fatalf("models %+v", ms)
	}
	if c.Name() != "codex" || c.Capabilities() != (agent.Capabilities{Streaming: "events", NativeResume: true, Usage: true}) {
		t.Fatalf("name %q caps %+v", c.Name(), c.Capabilities())
	}
}

func TestParseCatalogRejectsGarbage(t *testing.T) {
	for _, in := range []string{"", "no json", "{", `{"models":[{"slug":"-rf","visibility":"list"}]}`, `[{"slug":"x"}]`} {
		if got := parseCatalog([]byte(in)); len(got) != 0 {
			t.Errorf("parseCatalog(%q) = %+v", in, got)
		}
	}
	got := parseCatalog([]byte("WARNING: noise\r\n" + `{"models":[{"slug":"m1","visibility":"list"}]}`))
	if len(got) != 1 || got[0] != (agent.Model{ID: "m1", Label: "m1", Source: agent.ModelSourceTool}) {
		t.Fatalf("with noise: %+v", got)
	}
}
