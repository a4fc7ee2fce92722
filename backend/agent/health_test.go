package agent

import (
	"context"
	"testing"
	"time"
)

// healthTool answers Health after waiting for release or ctx.
type healthTool struct {
	namedTool
	release chan struct{}
	obeyCtx bool
	seen    chan string
}

func (h healthTool) Health(ctx context.Context, model string) Health {
	h.seen <- model
	if h.obeyCtx {
		select {
		case <-h.release:
			return Health{Tool: string(h.namedTool), Installed: true, Authenticated: true}
		case <-ctx.Done():
			return Health{Tool: string(h.namedTool), Installed: true, Error: "canceled: " + ctx.Err().Error()}
		}
	}
	<-h.release
	return Health{Tool: string(h.namedTool), Installed: true}
}

func TestCheckHealthParallelOrderAndTimeout(t *testing.T) {
	release := make(chan struct{})
	seen := make(chan string, 3)
	quick := healthTool{namedTool: "quick", release: make(chan struct{}), obeyCtx: true, seen: seen}
	close(quick.release)
	slowObeys := healthTool{namedTool: "slow", release: release, obeyCtx: true, seen: seen}
	stuck := healthTool{namedTool: "stuck", release: release, seen: seen}
	defer close(release)
	hs := CheckHealth(context.Background(), []Tool{slowObeys, quick, stuck},
		func(name string) string { return "model-" + name }, 300*time.Millisecond)
	if len(hs) != 3 || hs[0].Tool != "slow" || hs[1].Tool != "quick" || hs[2].Tool != "stuck" {
		t.Fatalf("order %+v", hs)
	}
	if !hs[1].Authenticated || hs[1].Error != "" {
		t.Fatalf("quick %+v", hs[1])
	}
	if hs[0].Error == "" || hs[0].Authenticated {
		t.Fatalf("slow %+v", hs[0])
	}
	if hs[2].Error != "health check timed out" {
		t.Fatalf("stuck %+v", hs[2])
	}
	models := map[string]bool{}
	for range 3 {
		models[<-seen] = true
	}
	if !models["model-quick"] || !models["model-slow"] || !models["model-stuck"] {
		t.Fatalf("smoke models %v", models)
	}
}
