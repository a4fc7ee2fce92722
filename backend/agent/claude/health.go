package claude

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// SmokePrompt is the prompt of the health check.
const SmokePrompt = "Reply with the single word OK."

// defaultBaseURL is where claude sends requests without ANTHROPIC_BASE_URL.
const defaultBaseURL = "https://api.anthropic.com"

// lookPath resolves the executable in the PATH claude will run with. It
// returns an error wrapping agent.ErrNotInstalled when there is none.
func (t *Tool) lookPath() (string, error) {
	path := t.opts.Path
	if !strings.Contains(path, "/") {
		dirs := envValue(t.env(nil), "PATH")
		if dirs == "" {
			dirs, _ = t.opts.LookupEnv("PATH")
		}
		found := ""
		for _, d := range filepath.SplitList(dirs) {
			if d == "" {
				continue
			}
			if p := filepath.Join(d, path); isExecutable(p) {
				found = p
				break
			}
		}
		if found == "" {
			return "", fmt.Errorf("claude: %q not found in PATH: %w", path, agent.ErrNotInstalled)
		}
		return found, nil
	}
	if !isExecutable(path) {
		return "", fmt.Errorf("claude: %s: %w", path, agent.ErrNotInstalled)
	}
	return path, nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// envValue returns the last value of key in env.
func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// Health checks, within ctx: that claude is installed (`claude --version`),
// that its API endpoint answers (a HEAD request), and that it is
// authenticated (a smoke prompt with smokeModel, API retries off). It never
// returns an error; what failed is in Health.Error.
func (t *Tool) Health(ctx context.Context, smokeModel string) agent.Health {
	h := agent.Health{Tool: Name}
	path, err := t.lookPath()
	if err != nil {
		h.Error = err.Error()
		return h
	}
	h.Path, h.Installed = path, true
	var wg sync.WaitGroup
	var reachErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		reachErr = t.probe(ctx)
	}()
	h.Version, err = t.version(ctx, path)
	if err != nil {
		wg.Wait()
		h.Error = err.Error()
		h.Reachable = reachErr == nil
		return h
	}
	res, err := t.smoke(ctx, smokeModel)
	wg.Wait()
	if key, ok := keyOf(path); ok {
		// The smoke prompt's run learnt the tools this claude has (its
		// init line comes before any API call, so even without a login).
		_ = t.known.noteVersion(key, h.Version)
	}
	h.Reachable = reachErr == nil
	switch {
	case err != nil:
		h.Error = err.Error()
	case res.Failed():
		h.Error = "claude: " + res.ErrorText
	default:
		h.Authenticated = true
		h.Reachable = true // it answered the smoke prompt
	}
	if h.Error == "" && reachErr != nil && !h.Authenticated {
		h.Error = reachErr.Error()
	}
	return h
}

// version runs `claude --version` and returns its version number.
func (t *Tool) version(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Env = t.env(nil)
	if envValue(cmd.Env, "PATH") == "" {
		if p, ok := t.opts.LookupEnv("PATH"); ok {
			cmd.Env = append(cmd.Env, "PATH="+p)
		}
	}
	cmd.WaitDelay = agent.HealthWaitDelay
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("claude --version: %w", err)
	}
	v := strings.TrimSpace(string(out))
	if f := strings.Fields(v); len(f) > 0 {
		v = f[0]
	}
	return v, nil
}

// probe checks that the API base URL answers HTTP at all.
func (t *Tool) probe(ctx context.Context) error {
	base := envValue(t.env(nil), "ANTHROPIC_BASE_URL")
	if base == "" {
		base = defaultBaseURL
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, strings.TrimRight(base, "/")+"/", nil)
	if err != nil {
		return fmt.Errorf("claude: api url %q: %w", base, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("claude: api unreachable: %w", err)
	}
	resp.Body.Close()
	return nil
}

// smoke runs the smoke prompt in a temp dir, bounded by ctx.
func (t *Tool) smoke(ctx context.Context, model string) (agent.Result, error) {
	dir, err := os.MkdirTemp("", "boof-claude-smoke-")
	if err != nil {
		return agent.Result{}, fmt.Errorf("claude: smoke dir: %w", err)
	}
	defer os.RemoveAll(dir)
	st := *t
	st.opts.MidRunInput = false
	run, err := st.Start(ctx, agent.Request{Prompt: SmokePrompt, Model: model, Dir: dir,
		Env: []string{"CLAUDE_CODE_MAX_RETRIES=0"}, Grace: 2 * time.Second})
	if err != nil {
		return agent.Result{}, err
	}
	res, err := run.Wait()
	if err != nil {
		return res, err
	}
	if res.StopReason == proc.ReasonCanceled && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		res.ErrorText = "smoke prompt timed out"
	}
	return res, nil
}
