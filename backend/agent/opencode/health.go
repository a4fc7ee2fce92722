package opencode

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/openaicli"
	"github.com/boof-runner/boof-runner/backend/task"
)

// SmokePrompt is the prompt of the health check.
const SmokePrompt = openaicli.SmokePrompt

// minVersion is the oldest opencode whose flags the adapter uses (run
// --auto, --format json, --title, --print-logs).
var minVersion = [3]int{1, 18, 0}

// unreachableRe matches errors that mean no answer came from the server.
var unreachableRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)ECONNREFUSED|ENOTFOUND|EAI_AGAIN|unable to connect|connection (refused|error)|fetch failed|timed out`)
})

// Health reports whether opencode is installed and recent enough (its
// version), whether a smoke prompt with smokeModel ("" = the endpoint's
// OPENAI_MODEL, else opencode's default) gets an answer (Authenticated),
// and whether the model server answered at all (Reachable). The smoke
// session goes to a throwaway database, not the user's session list. The
// check is bounded by ctx, or by 20 s when ctx has no deadline. Failures
// are described in Health.Error; it returns no error.
func (t *Tool) Health(ctx context.Context, smokeModel string) agent.Health {
	return t.cli().Health(ctx, smokeModel, openaicli.Checks{Tool: Name, NoRunner: ErrNoRunner, MinVersion: minVersion,
		Tested: TestedVersion, Unreachable: unreachableRe(), Smoke: t.smoke})
}

// checkVersion refuses an opencode older than minVersion.
func checkVersion(v string) error {
	return openaicli.CheckVersion(label, v, minVersion, TestedVersion)
}

// errSmokeStart wraps a failure to start the smoke prompt.
var errSmokeStart = errors.New("opencode smoke prompt")

// smoke runs the smoke prompt in an empty temp dir with a throwaway
// session database (OPENCODE_DB; the login and config stay the user's),
// bounded by ctx.
func (t *Tool) smoke(ctx context.Context, model string) (agent.Result, error) {
	dir, err := os.MkdirTemp(t.opts.TempDir, "opencode-smoke-*")
	if err != nil {
		return agent.Result{}, fmt.Errorf("%w: %w", errSmokeStart, err)
	}
	defer os.RemoveAll(dir)
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o700); err != nil {
		return agent.Result{}, fmt.Errorf("%w: %w", errSmokeStart, err)
	}
	r, err := t.start(ctx, agent.Request{Role: task.RolePlanner, Prompt: SmokePrompt, Model: model, Dir: work,
		Env: []string{"OPENCODE_DB=" + filepath.Join(dir, "smoke.db")}, Grace: time.Second}, limitQuiet)
	if err != nil {
		return agent.Result{}, fmt.Errorf("%w: %w", errSmokeStart, err)
	}
	return r.Wait()
}
