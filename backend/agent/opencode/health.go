package opencode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// SmokePrompt is the prompt of the health check.
const SmokePrompt = "Reply with the single word OK and nothing else. Do not use any tool."

// healthTimeout bounds a health check when ctx has no deadline.
const healthTimeout = 20 * time.Second

// minVersion is the oldest opencode whose flags the adapter uses (run
// --auto, --format json, --title, --print-logs).
var minVersion = [3]int{1, 18, 0}

// versionRe finds the version opencode --version prints ("1.18.33").
var versionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(\d+)\.(\d+)\.(\d+)[0-9A-Za-z.+-]*`) })

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
	if err := checkVersion(h.Version); err != nil {
		h.Error = err.Error()
		return h
	}
	res, err := t.smoke(ctx, smokeModel)
	switch {
	case err != nil:
		h.Error = err.Error()
	case !res.Failed():
		h.Authenticated, h.Reachable = true, true
	default:
		h.Error = "opencode: " + res.ErrorText
		if res.StopReason != proc.ReasonNone {
			h.Error = "opencode: no answer from the model server in time (" + res.ErrorText + ")"
		}
		h.Reachable = res.StopReason == proc.ReasonNone && !unreachableRe().MatchString(res.ErrorText)
	}
	return h
}

// version runs "opencode --version" and returns the version it prints.
func (t *Tool) version(ctx context.Context, bin string, env []string) (string, error) {
	dir, err := os.MkdirTemp(t.opts.TempDir, "opencode-version-*")
	if err != nil {
		return "", fmt.Errorf("opencode version: %w", err)
	}
	defer os.RemoveAll(dir)
	var out bytes.Buffer
	hd, err := t.opts.Runner.Start(ctx, proc.Spec{Path: bin, Args: []string{"--version"}, Dir: dir, Env: env,
		Grace: time.Second,
		OnChunk: func(b []byte) {
			if out.Len() < 4096 {
				out.Write(b)
			}
		}})
	if err != nil {
		return "", fmt.Errorf("opencode version: %w", err)
	}
	pr := hd.Wait()
	text := strings.TrimSpace(proc.ForDisplay(out.Bytes()))
	if err := pr.Err(); err != nil {
		return "", fmt.Errorf("opencode --version: %w: %q", err, clipText(text))
	}
	m := versionRe().FindString(text)
	if m == "" {
		return "", fmt.Errorf("opencode --version printed no version: %q", clipText(text))
	}
	return m, nil
}

// checkVersion refuses an opencode older than minVersion.
func checkVersion(v string) error {
	m := versionRe().FindStringSubmatch(v)
	if m == nil {
		return fmt.Errorf("opencode version %q is not a version", v)
	}
	for i := range 3 {
		n, _ := strconv.Atoi(m[i+1])
		if n != minVersion[i] {
			if n < minVersion[i] {
				return fmt.Errorf("opencode %s is too old: Boof Runner needs %d.%d or later (tested with %s)",
					v, minVersion[0], minVersion[1], TestedVersion)
			}
			return nil
		}
	}
	return nil
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

// clipText bounds text quoted in an error.
func clipText(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
