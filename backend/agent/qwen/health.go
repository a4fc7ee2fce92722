package qwen

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/openaicli"
	"github.com/boof-runner/boof-runner/backend/task"
)

// SmokePrompt is the prompt of the health check.
const SmokePrompt = openaicli.SmokePrompt

// healthTimeout bounds a health check when ctx has no deadline.
const healthTimeout = openaicli.HealthTimeout

// minVersion is the oldest qwen whose flags the adapter uses (--session-id,
// --max-wall-time, --exclude-tools, stream-json input).
var minVersion = [3]int{0, 24, 0}

// unreachableRe matches errors that mean no answer came from the server.
var unreachableRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)ECONNREFUSED|ENOTFOUND|EAI_AGAIN|connection (refused|error)|fetch failed|timed out|no answer`)
})

// Health reports whether qwen is installed and recent enough (its
// version), whether a smoke prompt with smokeModel ("" = qwen's default,
// OPENAI_MODEL) gets an answer (Authenticated), and whether the model
// server answered at all (Reachable). The check runs in a throwaway home,
// bounded by ctx, or by 20 s when ctx has no deadline. Failures are
// described in Health.Error; it returns no error.
func (t *Tool) Health(ctx context.Context, smokeModel string) agent.Health {
	return t.cli().Health(ctx, smokeModel, openaicli.Checks{Tool: Name, NoRunner: ErrNoRunner, MinVersion: minVersion,
		Tested: TestedVersion, Unreachable: unreachableRe(), Smoke: t.smoke,
		VersionEnv: func(dir string) []string { return []string{"QWEN_HOME=" + dir} }})
}

// checkVersion refuses a qwen older than minVersion.
func checkVersion(v string) error {
	return openaicli.CheckVersion(label, v, minVersion, TestedVersion)
}

// errSmokeStart wraps a failure to start the smoke prompt.
var errSmokeStart = errors.New("qwen smoke prompt")

// smoke runs the smoke prompt in an empty temp dir, bounded by ctx (qwen
// too is told the time it has, so its own retries end with it).
func (t *Tool) smoke(ctx context.Context, model string) (agent.Result, error) {
	dir, err := os.MkdirTemp(t.opts.TempDir, "qwen-smoke-*")
	if err != nil {
		return agent.Result{}, fmt.Errorf("%w: %w", errSmokeStart, err)
	}
	defer os.RemoveAll(dir)
	limit := healthTimeout
	if d, ok := ctx.Deadline(); ok {
		limit = max(time.Until(d)-time.Second, time.Second)
	}
	r, err := t.start(ctx, agent.Request{Role: task.RolePlanner, Prompt: SmokePrompt, Model: model, Dir: dir,
		MaxRuntime: limit, Grace: time.Second}, true)
	if err != nil {
		return agent.Result{}, fmt.Errorf("%w: %w", errSmokeStart, err)
	}
	return r.Wait()
}
