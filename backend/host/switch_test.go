package host_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/settings"
)

// SwitchTarget reads limits.switchOrder at each call: by default a CLI's
// step may go on with the other CLIs in preference order (claude-code and
// codex keep each other first, as before the list existed), the mock
// never switches; a settings order is taken as it is, each tool installed
// when its settings path or its executable in PATH is found.
func TestSwitchTargetFollowsTheSettingsOrder(t *testing.T) {
	fakeBins(t, "codex")
	paths := newPaths(t)
	f := host.SettingsFile(paths)
	current := func() settings.Settings {
		s, err := f.Load()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	sw := host.SwitchTarget(current)
	c := func(tool string, installed bool) pipeline.SwitchCandidate {
		return pipeline.SwitchCandidate{Tool: tool, Installed: installed}
	}
	for tool, want := range map[string][]pipeline.SwitchCandidate{
		"claude-code": {c("codex", true), c("gemini", false), c("opencode", false), c("qwen-code", false)},
		"codex":       {c("claude-code", false), c("gemini", false), c("opencode", false), c("qwen-code", false)},
		"gemini":      {c("claude-code", false), c("codex", true), c("opencode", false), c("qwen-code", false)},
		"qwen-code":   {c("claude-code", false), c("codex", true), c("gemini", false), c("opencode", false)},
		"mock":        nil,
	} {
		if got := sw(tool); !reflect.DeepEqual(got, want) {
			t.Errorf("default order, %s: %+v, want %+v", tool, got, want)
		}
	}
	gem := filepath.Join(t.TempDir(), "gemini")
	if err := os.WriteFile(gem, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Set("tools.gemini.path", gem); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Set("limits.switchOrder", `["gemini","mock","claude-code"]`); err != nil {
		t.Fatal(err)
	}
	for tool, want := range map[string][]pipeline.SwitchCandidate{
		"gemini":      {c("mock", true), c("claude-code", false)},
		"mock":        {c("gemini", true), c("claude-code", false)},
		"claude-code": {c("gemini", true), c("mock", true)},
		"codex":       nil,
	} {
		if got := sw(tool); !reflect.DeepEqual(got, want) {
			t.Errorf("settings order, %s: %+v, want %+v", tool, got, want)
		}
	}
	if _, err := f.Set("limits.switchOrder", `[]`); err != nil {
		t.Fatal(err)
	}
	if got := sw("claude-code"); got != nil {
		t.Errorf("an empty order still switches: %+v", got)
	}
}
