package app

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/settings"
)

// checkedTool is a tool whose health check is counted; it passes when ok.
type checkedTool struct {
	agent.Tool
	name   string
	ok     bool
	checks atomic.Int32
}

func (c *checkedTool) Name() string { return c.name }

func (c *checkedTool) Health(context.Context, string) agent.Health {
	c.checks.Add(1)
	if !c.ok {
		return agent.Health{Tool: c.name, Installed: true, Error: "not logged in"}
	}
	return agent.Health{Tool: c.name, Installed: true, Authenticated: true, Reachable: true, Version: "1"}
}

// A passing check is shown again when Settings opens again; a failing one,
// a Test, and a change to what the check runs with (the smoke model) run it
// again; a check older than healthTTL is not reused.
func TestToolHealthReusesPassingChecks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	good := &checkedTool{name: "mock", ok: true}
	bad := &checkedTool{name: "codex"}
	tools := func() []agent.Tool { return []agent.Tool{good, bad} }
	svc := NewSettingsService(settings.NewFile(path, host.Catalog()), newTestStore(t), tools, &RecordingEmitter{}, context.Background, nil, nil)
	checks := func() [2]int32 { return [2]int32{good.checks.Load(), bad.checks.Load()} }

	for range 2 {
		hs, err := svc.ToolHealth()
		if err != nil || len(hs) != 2 || hs[0].Tool != "mock" || !hs[0].Authenticated || hs[1].Tool != "codex" || hs[1].Error != "not logged in" {
			t.Fatalf("health = %+v %v", hs, err)
		}
	}
	if got := checks(); got != [2]int32{1, 2} {
		t.Fatalf("checks after two openings = %v, want the passing one once, the failing one twice", got)
	}

	if v, err := svc.TestTool("mock"); err != nil || !v.Authenticated {
		t.Fatalf("test = %+v %v", v, err)
	}
	svc.ToolHealth()
	if got := checks(); got != [2]int32{2, 3} {
		t.Fatalf("checks after Test = %v", got)
	}

	if err := os.WriteFile(path, []byte(`{"roles":{"developer":{"tool":"mock","model":"mock-2"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	svc.ToolHealth()
	if got := checks(); got != [2]int32{3, 4} {
		t.Fatalf("checks after the smoke model changed = %v", got)
	}

	cur, _ := svc.file.Load()
	with := checkedWith(cur, "mock")
	v, ok := svc.healthCache.get("mock", with, time.Now())
	if !ok {
		t.Fatal("no passing check kept")
	}
	if _, ok := svc.healthCache.get("mock", with, v.CheckedAt.Add(healthTTL)); ok {
		t.Fatal("a check healthTTL old was reused")
	}
}
