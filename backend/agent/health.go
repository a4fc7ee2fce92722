package agent

import (
	"context"
	"sync"
	"time"
)

// HealthWaitDelay bounds how long a health check waits for a killed CLI's
// output pipes to close after its context ends.
const HealthWaitDelay = 2 * time.Second

// HealthTimeout is how long doctor and the Settings screen give all checks.
const HealthTimeout = 20 * time.Second

// CheckHealth runs the health checks of tools in parallel, each bounded by
// timeout (HealthTimeout when zero) and by ctx, and returns them in the
// order of tools. smokeModel gives the model of each tool's smoke prompt
// ("" = the tool's default); it may be nil. A check that does not return
// in time is reported with Error "health check timed out".
func CheckHealth(ctx context.Context, tools []Tool, smokeModel func(tool string) string, timeout time.Duration) []Health {
	if timeout <= 0 {
		timeout = HealthTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out := make([]Health, len(tools))
	var wg sync.WaitGroup
	for i, t := range tools {
		out[i] = Health{Tool: t.Name(), Error: "health check timed out"}
		model := ""
		if smokeModel != nil {
			model = smokeModel(t.Name())
		}
		done := make(chan Health, 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			go func() { done <- t.Health(ctx, model) }()
			select {
			case h := <-done:
				out[i] = h
			case <-ctx.Done():
				// The tool ignores ctx: report the timeout, leave it behind.
			}
		}()
	}
	wg.Wait()
	return out
}
