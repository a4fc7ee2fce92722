// Package codex is the agent.Tool adapter for the OpenAI Codex CLI. It runs
// "codex exec --json" through the PTY runner (backend/proc), parses its
// JSON-lines events, and keeps every codex flag and wire detail in here.
package codex

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// Name is the tool's settings name.
const Name = "codex"

// Bin is the executable looked up in PATH when Options.Path is empty.
const Bin = "codex"

// passEnv lists the variables of the app's environment handed to codex
// (the runner inherits nothing else): where codex keeps its config and
// login, API keys and proxies. It is never changed.
var passEnv = []string{
	"CODEX_HOME", "OPENAI_API_KEY", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID",
	"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR",
}

// Options configure the codex tool.
type Options struct {
	// Path is the codex executable: a path, or a name looked up in the PATH
	// of the effective environment. Empty means Bin.
	Path string
	// Runner starts every codex process. Required for Start, Health and
	// the catalog query of Models.
	Runner *proc.Runner
	// Env is extra environment (KEY=VALUE) for every codex process, from
	// settings tools.codex.env. Request.Env is added after it.
	Env []string
	// ConfigOverrides are codex config overrides (key=value, the value
	// parsed as TOML by codex) passed as -c to every invocation, e.g. a
	// model provider.
	ConfigOverrides []string
	// Models are model ids configured in settings, listed by Models.
	Models []string
	// Getenv reads the app's environment; nil means os.Getenv. Only
	// CODEX_HOME, OPENAI_API_KEY, OPENAI_ORG_ID, OPENAI_PROJECT_ID, the
	// proxy variables and SSL_CERT_FILE/DIR are handed to codex (the runner
	// adds PATH, HOME, TERM and LANG), and PATH and HOME to find codex and
	// its session files.
	Getenv func(string) string
	// TempDir holds the short-lived last-message files; "" means os.TempDir().
	TempDir string
}

// Adapter registers codex with the app. codex exec runs one
// non-interactive turn, so it takes no mid-run input.
var Adapter = agent.Adapter{
	Name:          Name,
	ContextWindow: 272000,
	Bin:           Bin,
	Capabilities:  capabilities,
	Prices:        Prices,
	Configurable:  true,
	Install:       "npm install -g @openai/codex",
	SignIn:        "codex login",
	KeyEnv:        "OPENAI_API_KEY",
	New: func(c agent.Config) agent.Tool {
		return New(Options{Path: c.Path, Runner: c.Runner, Env: c.Env})
	},
}

// capabilities: typed events, native resume and usage; codex exec takes no
// input while it runs.
var capabilities = agent.Capabilities{Streaming: agent.StreamingEvents, MidRunInput: false, NativeResume: true, Usage: true}

// Tool is the codex adapter. It is safe for concurrent use.
type Tool struct {
	opts Options

	mu      sync.Mutex
	threads map[string]ThreadUsage // cumulative usage per thread seen by this process
}

var _ agent.Tool = (*Tool)(nil)

// ErrNoRunner is returned (wrapped) by Start, and reported by Health, when
// Options.Runner is nil.
var ErrNoRunner = errors.New("codex: options have no process runner")

// New returns the codex tool.
func New(opts Options) *Tool {
	if opts.Path == "" {
		opts.Path = Bin
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.TempDir == "" {
		opts.TempDir = os.TempDir()
	}
	return &Tool{opts: opts, threads: map[string]ThreadUsage{}}
}

// Name returns "codex".
func (c *Tool) Name() string { return Name }

// Capabilities: typed events, native resume and usage; codex exec takes no
// input while it runs.
func (c *Tool) Capabilities() agent.Capabilities { return capabilities }

// env returns the environment of a codex process: the pass-through
// variables of the app, then Options.Env, then extra (later entries win).
func (c *Tool) env(extra []string) []string {
	var env []string
	for _, k := range passEnv {
		if v := c.opts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	env = append(env, c.opts.Env...)
	return append(env, extra...)
}

// lookupEnv returns the last value of key in env.
func lookupEnv(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// resolveBin finds the codex executable as the runner will: bin itself
// when it holds a slash, else the first executable named bin in the PATH
// of env (or of the app when env sets none). It returns agent.ErrNotInstalled
// when there is none.
func (c *Tool) resolveBin(env []string) (string, error) {
	bin := c.opts.Path
	if strings.Contains(bin, "/") {
		if isExecutable(bin) {
			return bin, nil
		}
		return "", errNotInstalled(bin)
	}
	path, ok := lookupEnv(env, "PATH")
	if !ok {
		path = c.opts.Getenv("PATH")
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			continue
		}
		if p := filepath.Join(d, bin); isExecutable(p) {
			return p, nil
		}
	}
	return "", errNotInstalled(bin)
}

func errNotInstalled(bin string) error {
	return &notInstalledError{bin: bin}
}

// notInstalledError names the missing executable; it matches agent.ErrNotInstalled.
type notInstalledError struct{ bin string }

func (e *notInstalledError) Error() string { return "codex: " + e.bin + " not found" }

func (e *notInstalledError) Is(target error) bool { return target == agent.ErrNotInstalled }

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// codexHome is the directory codex keeps sessions in for env: CODEX_HOME,
// else $HOME/.codex.
func (c *Tool) codexHome(env []string) string {
	if v, ok := lookupEnv(env, "CODEX_HOME"); ok && v != "" {
		return v
	}
	home, ok := lookupEnv(env, "HOME")
	if !ok || home == "" {
		home = c.opts.Getenv("HOME")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".codex")
}

// rememberThread records a thread's cumulative usage after a run.
func (c *Tool) rememberThread(id string, u ThreadUsage) {
	if id == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.threads[id] = u
}

// threadBase returns a thread's cumulative usage before a resumed run: from
// codex's session file when it can be read, else from this process's memory
// of the thread, else zero.
func (c *Tool) threadBase(env []string, id string) ThreadUsage {
	if u, ok := rolloutUsage(c.codexHome(env), id); ok {
		return u
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.threads[id]
}
