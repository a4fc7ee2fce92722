package gemini

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// SmokePrompt is the prompt of the health check.
const SmokePrompt = "Reply with the single word OK and nothing else. Do not use any tool."

// MinVersion is the oldest gemini this adapter was made with: its flags
// (--skip-trust, --output-format stream-json, --policy), its
// GEMINI_CLI_HOME and its stream-json lines.
const MinVersion = "0.61.0"

// healthTimeout bounds a health check when ctx has no deadline.
const healthTimeout = 30 * time.Second

// versionRe finds the version gemini --version prints ("0.61.0").
var versionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(\d+)\.(\d+)\.(\d+)[0-9A-Za-z.+-]*`) })

// unreachableRe matches errors that mean no answer came from the API.
var unreachableRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)fetch failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|network|socket hang up|timed out`)
})

// Health checks, within ctx (30 s when it has no deadline): that gemini is
// installed and not older than MinVersion (`gemini --version`), and that
// it is authenticated: a smoke prompt with smokeModel, gemini's own
// retries off, in a temporary config directory, gets an answer. It never
// returns an error; what failed is in Health.Error.
func (t *Tool) Health(ctx context.Context, smokeModel string) agent.Health {
	h := agent.Health{Tool: Name}
	if t.opts.Runner == nil {
		h.Error = ErrNoRunner.Error()
		return h
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, healthTimeout)
		defer cancel()
	}
	env := t.env(nil)
	bin, err := t.resolveBin(env)
	if err != nil {
		h.Error = err.Error()
		return h
	}
	h.Path = bin
	if h.Version, err = t.version(ctx, bin, env); err != nil {
		h.Error = err.Error()
		return h
	}
	h.Installed = true
	if older(h.Version, MinVersion) {
		h.Error = fmt.Sprintf("gemini %s is older than %s, the oldest version this app drives: update it (npm install -g @google/gemini-cli)", h.Version, MinVersion)
		return h
	}
	if err := checkBaseURL(env); err != nil {
		h.Error = "gemini: " + err.Error()
		return h
	}
	res, err := t.smoke(ctx, smokeModel)
	switch {
	case err != nil:
		h.Error = err.Error()
	case !res.Failed():
		h.Authenticated, h.Reachable = true, true
	default:
		h.Error = "gemini: " + res.ErrorText
		if res.StopReason == proc.ReasonCanceled && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			h.Error = "gemini: no answer to the smoke prompt in time"
		}
		h.Reachable = res.StopReason == proc.ReasonNone && !unreachableRe().MatchString(res.ErrorText)
	}
	return h
}

// version runs `gemini --version` and returns the version it prints.
func (t *Tool) version(ctx context.Context, bin string, env []string) (string, error) {
	dir, err := os.MkdirTemp("", "boof-gemini-version-")
	if err != nil {
		return "", fmt.Errorf("gemini version: %w", err)
	}
	defer os.RemoveAll(dir)
	var out bytes.Buffer
	ph, err := t.opts.Runner.Start(ctx, proc.Spec{Path: bin, Args: []string{"--version"}, Dir: dir,
		Env:        append(env, "GEMINI_CLI_HOME="+dir, "GEMINI_CLI_NO_RELAUNCH=true"),
		MaxRuntime: 20 * time.Second, Grace: time.Second,
		OnChunk: func(b []byte) {
			if out.Len() < 4096 {
				out.Write(b)
			}
		}})
	if err != nil {
		return "", fmt.Errorf("gemini version: %w", err)
	}
	pr := ph.Wait()
	text := strings.TrimSpace(proc.ForDisplay(out.Bytes()))
	if err := pr.Err(); err != nil {
		return "", fmt.Errorf("gemini --version: %w: %s", err, clipLine(text))
	}
	m := versionRe().FindString(text)
	if m == "" {
		return "", fmt.Errorf("gemini --version printed no version: %q", clipLine(text))
	}
	return m, nil
}

// clipLine shortens printed text for an error message.
func clipLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// older reports whether version v is older than min (both "X.Y.Z…").
func older(v, min string) bool {
	a, b := versionRe().FindStringSubmatch(v), versionRe().FindStringSubmatch(min)
	if a == nil || b == nil {
		return false
	}
	for i := 1; i <= 3; i++ {
		x, _ := strconv.Atoi(a[i])
		y, _ := strconv.Atoi(b[i])
		if x != y {
			return x < y
		}
	}
	return false
}

// smoke runs the smoke prompt in an empty temporary directory with a
// temporary config directory and gemini's retries off.
func (t *Tool) smoke(ctx context.Context, model string) (agent.Result, error) {
	dir, err := os.MkdirTemp("", "boof-gemini-smoke-")
	if err != nil {
		return agent.Result{}, fmt.Errorf("gemini smoke prompt: %w", err)
	}
	defer os.RemoveAll(dir)
	run, err := t.start(ctx, agent.Request{Prompt: SmokePrompt, Model: model, Dir: dir, Grace: time.Second},
		startOpts{temp: true, maxAttempts: 1})
	if err != nil {
		return agent.Result{}, fmt.Errorf("gemini smoke prompt: %w", err)
	}
	return run.Wait()
}
