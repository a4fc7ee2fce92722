// Package gemini is the agent adapter for Google's Gemini CLI (`gemini`):
// it runs "gemini -p PROMPT --output-format stream-json" under the PTY
// runner with a config directory of its own (GEMINI_CLI_HOME, see home.go),
// parses the JSON lines into agent events and a Result, recognises quota
// errors as usage limits, checks its health and lists its models. Every
// gemini flag, file and wire detail stays in here.
package gemini

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// Name is the tool's settings name.
const Name = "gemini"

// Bin is the executable looked up in PATH when Options.Path is empty.
const Bin = "gemini"

// passEnv lists the variables of the app's environment handed to gemini
// (the runner passes nothing else but PATH, HOME, TERM and LANG): the
// API key and endpoint, the Vertex AI and Code Assist switches, Google
// credentials, proxies and certificates. GEMINI_CLI_HOME is read (it says
// where the user's own gemini config is) but never handed on: every step
// gets a config directory of its own.
var passEnv = []string{
	"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GOOGLE_VERTEX_BASE_URL",
	"GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION",
	"GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_ACCESS_TOKEN",
	"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy",
	"NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR", "USER", "SHELL",
}

// Options configure the gemini tool.
type Options struct {
	// Path is the gemini executable: a path, or a name looked up in the
	// PATH of the effective environment. Empty means Bin.
	Path string
	// Runner starts every gemini process. Required for Start and Health.
	Runner *proc.Runner
	// Env is extra environment (KEY=VALUE) for every gemini process, from
	// settings tools.gemini.env. Request.Env is added after it.
	Env []string
	// Models are model ids configured in settings, listed by Models.
	Models []string
	// StateDir holds the config directories of the steps (homes/) and the
	// read-only policy; "" means $TMPDIR/boof-gemini-state.
	StateDir string
	// Getenv reads the app's environment; nil means os.Getenv.
	Getenv func(string) string
}

// capabilities: typed events, native resume (--resume) and usage; gemini
// -p reads its input once at start, so it takes none while it runs.
var capabilities = agent.Capabilities{Streaming: agent.StreamingEvents, MidRunInput: false, NativeResume: true, Usage: true}

// Adapter registers gemini with the app.
var Adapter = agent.Adapter{
	Name:          Name,
	ContextWindow: 1048576,
	Bin:           Bin,
	Capabilities:  capabilities,
	Prices:        Prices,
	Configurable:  true,
	Install:       "npm install -g @google/gemini-cli",
	SignIn:        "gemini",
	KeyEnv:        "GEMINI_API_KEY",
	New: func(c agent.Config) agent.Tool {
		return New(Options{Path: c.Path, Runner: c.Runner, Env: c.Env, StateDir: c.StateDir})
	},
}

// Tool is the Gemini CLI adapter. It is safe for concurrent use.
type Tool struct {
	opts Options
}

var _ agent.Tool = (*Tool)(nil)

// ErrNoRunner is returned (wrapped) by Start, and reported by Health, when
// Options.Runner is nil.
var ErrNoRunner = errors.New("gemini: options have no process runner")

// New returns the gemini tool.
func New(opts Options) *Tool {
	if opts.Path == "" {
		opts.Path = Bin
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.StateDir == "" {
		opts.StateDir = filepath.Join(os.TempDir(), "boof-gemini-state")
	}
	return &Tool{opts: opts}
}

// Name returns "gemini".
func (t *Tool) Name() string { return Name }

// Capabilities: typed events, native resume and usage; no mid-run input.
func (t *Tool) Capabilities() agent.Capabilities { return capabilities }

// env returns the environment of a gemini process: the pass-through
// variables of the app, then Options.Env, then extra (later entries win).
// GEMINI_CLI_HOME and the relaunch switch are added by the caller.
func (t *Tool) env(extra []string) []string {
	var env []string
	for _, k := range passEnv {
		if v := t.opts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	env = append(env, t.opts.Env...)
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

// resolveBin finds the gemini executable as the runner will: the path
// itself when it holds a slash, else the first executable of that name in
// the PATH of env (or of the app). It returns an error wrapping
// agent.ErrNotInstalled when there is none.
func (t *Tool) resolveBin(env []string) (string, error) {
	bin := t.opts.Path
	if strings.Contains(bin, "/") {
		if isExecutable(bin) {
			return bin, nil
		}
		return "", &notInstalledError{bin: bin}
	}
	path, ok := lookupEnv(env, "PATH")
	if !ok {
		path = t.opts.Getenv("PATH")
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			continue
		}
		if p := filepath.Join(d, bin); isExecutable(p) {
			return p, nil
		}
	}
	return "", &notInstalledError{bin: bin}
}

// notInstalledError names the missing executable; it matches agent.ErrNotInstalled.
type notInstalledError struct{ bin string }

func (e *notInstalledError) Error() string {
	where := e.bin + " not found"
	if !strings.Contains(e.bin, "/") {
		where = e.bin + " not found in PATH"
	}
	return "gemini executable " + where + " (install @google/gemini-cli, or set tools.gemini.path)"
}

func (e *notInstalledError) Is(target error) bool { return target == agent.ErrNotInstalled }

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}
