package openaicli

import (
	"bytes"
	"context"
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

// HealthTimeout bounds a health check when its context has no deadline.
const HealthTimeout = 20 * time.Second

// versionRe finds the version a CLI's --version prints ("1.18.33").
var versionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(\d+)\.(\d+)\.(\d+)[0-9A-Za-z.+-]*`) })

// Checks is what differs between the CLIs' health checks.
type Checks struct {
	// Tool is the tool's settings name (agent.Health.Tool).
	Tool string
	// NoRunner is reported when the CLI has no process runner.
	NoRunner error
	// MinVersion is the oldest version whose flags the adapter uses;
	// Tested the version it was checked with.
	MinVersion [3]int
	Tested     string
	// VersionEnv is extra environment for --version, run in the empty
	// directory dir (nil: none).
	VersionEnv func(dir string) []string
	// Unreachable matches the error texts that mean no answer came from
	// the model server.
	Unreachable *regexp.Regexp
	// Smoke runs the smoke prompt with model, bounded by ctx.
	Smoke func(ctx context.Context, model string) (agent.Result, error)
}

// Health reports whether the CLI is installed and recent enough (its
// version), whether the smoke prompt with smokeModel gets an answer
// (Authenticated), and whether the model server answered at all
// (Reachable). The check is bounded by ctx, or by HealthTimeout when ctx
// has no deadline. Failures are described in Health.Error.
func (c *CLI) Health(ctx context.Context, smokeModel string, k Checks) agent.Health {
	h := agent.Health{Tool: k.Tool}
	if c.Runner == nil {
		h.Error = k.NoRunner.Error()
		return h
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, HealthTimeout)
		defer cancel()
	}
	env := c.Environ(nil)
	bin, err := c.ResolveBin(env)
	if err != nil {
		h.Error = err.Error()
		return h
	}
	h.Path = bin
	if h.Version, err = c.version(ctx, bin, env, k.VersionEnv); err != nil {
		h.Error = err.Error()
		return h
	}
	h.Installed = true
	if err := CheckVersion(c.Label, h.Version, k.MinVersion, k.Tested); err != nil {
		h.Error = err.Error()
		return h
	}
	res, err := k.Smoke(ctx, smokeModel)
	switch {
	case err != nil:
		h.Error = err.Error()
	case !res.Failed():
		h.Authenticated, h.Reachable = true, true
	default:
		h.Error = c.Label + ": " + res.ErrorText
		if res.StopReason != proc.ReasonNone {
			h.Error = c.Label + ": no answer from the model server in time (" + res.ErrorText + ")"
		}
		h.Reachable = res.StopReason == proc.ReasonNone && !k.Unreachable.MatchString(res.ErrorText)
	}
	return h
}

// version runs "bin --version" in an empty directory and returns the
// version it prints.
func (c *CLI) version(ctx context.Context, bin string, env []string, extra func(dir string) []string) (string, error) {
	dir, err := os.MkdirTemp(c.TempDir, c.Label+"-version-*")
	if err != nil {
		return "", fmt.Errorf("%s version: %w", c.Label, err)
	}
	defer os.RemoveAll(dir)
	if extra != nil {
		env = append(env, extra(dir)...)
	}
	var out bytes.Buffer
	hd, err := c.Runner.Start(ctx, proc.Spec{Path: bin, Args: []string{"--version"}, Dir: dir, Env: env,
		Grace: time.Second,
		OnChunk: func(b []byte) {
			if out.Len() < 4096 {
				out.Write(b)
			}
		}})
	if err != nil {
		return "", fmt.Errorf("%s version: %w", c.Label, err)
	}
	pr := hd.Wait()
	text := strings.TrimSpace(proc.ForDisplay(out.Bytes()))
	if err := pr.Err(); err != nil {
		return "", fmt.Errorf("%s --version: %w: %q", c.Label, err, ClipText(text))
	}
	m := versionRe().FindString(text)
	if m == "" {
		return "", fmt.Errorf("%s --version printed no version: %q", c.Label, ClipText(text))
	}
	return m, nil
}

// CheckVersion refuses a version v of the CLI label older than min; tested
// is the version named in the refusal.
func CheckVersion(label, v string, min [3]int, tested string) error {
	m := versionRe().FindStringSubmatch(v)
	if m == nil {
		return fmt.Errorf("%s version %q is not a version", label, v)
	}
	for i := range 3 {
		n, _ := strconv.Atoi(m[i+1])
		if n != min[i] {
			if n < min[i] {
				return fmt.Errorf("%s %s is too old: Boof Runner needs %d.%d or later (tested with %s)",
					label, v, min[0], min[1], tested)
			}
			return nil
		}
	}
	return nil
}

// ClipText bounds text quoted in an error.
func ClipText(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
