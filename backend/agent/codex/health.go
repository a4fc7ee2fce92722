package codex

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// smokePrompt is the short prompt a health check sends.
const smokePrompt = "Reply with the single word OK and nothing else. Do not run any command."

// healthTimeout bounds a health check when ctx has no deadline.
const healthTimeout = 20 * time.Second

// versionRe finds the version in "codex-cli 0.171.0".
var versionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(\d+\.\d+\.\d+[0-9A-Za-z.+-]*)`) })

// unreachableRe matches codex errors that mean no answer came from the server.
var unreachableRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)waiting for network|connection failed|error sending request|connection refused|dns error|timed out`)
})

// authRe matches codex errors that mean the credentials were refused or missing.
var authRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)unexpected status 40[13]|unauthorized|invalid[_ ]api[_ ]key|missing environment variable|not logged in|login`)
})

// Health reports whether codex is installed (its version), whether a smoke
// prompt with smokeModel ("" = codex's default) gets an answer
// (Authenticated), and whether the model server answered at all
// (Reachable). The check is bounded by ctx, or by 20 s when ctx has no
// deadline. Failures are described in Health.Error; it returns no error.
func (c *Tool) Health(ctx context.Context, smokeModel string) agent.Health {
	h := agent.Health{Tool: Name}
	if c.opts.Runner == nil {
		h.Error = ErrNoRunner.Error()
		return h
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, healthTimeout)
		defer cancel()
	}
	env := c.env(nil)
	bin, err := c.resolveBin(env)
	if err != nil {
		h.Error = err.Error()
		return h
	}
	h.Path = bin
	h.Version, err = c.version(ctx, bin, env)
	if err != nil {
		h.Error = err.Error()
		return h
	}
	h.Installed = true
	res, err := c.smoke(ctx, smokeModel)
	switch {
	case err != nil:
		h.Error = err.Error()
	case !res.Failed():
		h.Authenticated, h.Reachable = true, true
	default:
		h.Error = res.ErrorText
		if h.Error == "" || res.StopReason == proc.ReasonCanceled && !strings.Contains(h.Error, "unexpected status") {
			h.Error = strings.TrimSpace("no answer from the model server in time. " + h.Error)
		}
		h.Reachable = strings.Contains(res.ErrorText, "unexpected status") ||
			(!unreachableRe().MatchString(res.ErrorText) && !authRe().MatchString(res.ErrorText) && res.StopReason == proc.ReasonNone)
	}
	return h
}

// version runs "codex --version" and returns the version it prints.
func (c *Tool) version(ctx context.Context, bin string, env []string) (string, error) {
	dir, err := os.MkdirTemp(c.opts.TempDir, "codex-health-*")
	if err != nil {
		return "", fmt.Errorf("codex version: %w", err)
	}
	defer os.RemoveAll(dir)
	var out bytes.Buffer
	h, err := c.opts.Runner.Start(ctx, proc.Spec{Path: bin, Args: []string{"--version"}, Dir: dir, Env: env,
		MaxRuntime: 10 * time.Second, Grace: time.Second,
		OnChunk: func(b []byte) {
			if out.Len() < 4096 {
				out.Write(b)
			}
		}})
	if err != nil {
		return "", fmt.Errorf("codex version: %w", err)
	}
	pr := h.Wait()
	text := strings.TrimSpace(proc.ForDisplay(out.Bytes()))
	if err := pr.Err(); err != nil {
		return "", fmt.Errorf("codex --version: %w: %s", err, text)
	}
	m := versionRe().FindStringSubmatch(text)
	if m == nil {
		return "", fmt.Errorf("codex --version printed no version: %q", text)
	}
	return m[1], nil
}

// errSmokeStart wraps a failure to start the smoke prompt.
var errSmokeStart = errors.New("smoke prompt")

// smoke runs the smoke prompt in an empty temp dir and returns its result.
func (c *Tool) smoke(ctx context.Context, model string) (agent.Result, error) {
	dir, err := os.MkdirTemp(c.opts.TempDir, "codex-health-*")
	if err != nil {
		return agent.Result{}, fmt.Errorf("%w: %w", errSmokeStart, err)
	}
	defer os.RemoveAll(dir)
	run, err := c.start(ctx, agent.Request{Role: task.RolePlanner, Prompt: smokePrompt, Model: model, Dir: dir,
		Grace: time.Second}, true)
	if err != nil {
		return agent.Result{}, fmt.Errorf("%w: %w", errSmokeStart, err)
	}
	return run.Wait()
}
