// Package opencode is the agent.Tool adapter for opencode (`opencode`, npm
// opencode-ai, a native binary): it runs `opencode run --format json
// --auto` through the PTY runner with the prompt on stdin, parses its JSON
// events into agent events, and hands opencode its provider and per-step
// settings through OPENCODE_CONFIG_CONTENT and a config home of its own,
// so the user's ~/.config/opencode is never written.
package opencode

import (
	"errors"
	"os"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/openaicli"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// Name is the tool's settings name.
const Name = "opencode"

// Bin is the executable looked up in PATH when Options.Path is empty.
const Bin = "opencode"

// label starts the adapter's error texts.
const label = "opencode"

// TestedVersion is the opencode version this adapter's flags and parser
// were checked with.
const TestedVersion = "1.18.33"

// passEnv lists the variables of the app's environment handed to opencode
// (the runner passes nothing else but PATH, HOME, TERM and LANG): the
// OpenAI-compatible endpoint, the provider keys opencode reads itself, the
// XDG directories that hold the user's opencode config, login and
// sessions, proxies and certificates.
var passEnv = []string{
	"OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL",
	"ANTHROPIC_API_KEY", "OPENROUTER_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY",
	"GROQ_API_KEY", "DEEPSEEK_API_KEY", "XAI_API_KEY", "MISTRAL_API_KEY", "OPENCODE_API_KEY",
	"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
	"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "USER", "SHELL",
}

// Options configure the opencode tool.
type Options struct {
	// Path is the opencode executable: a path, or a name looked up in the
	// PATH of the effective environment. Empty means Bin.
	Path string
	// Runner starts every opencode process. Required for Start and Health.
	Runner *proc.Runner
	// Env is extra environment (KEY=VALUE) for every opencode process,
	// from settings tools.opencode.env; Request.Env is added after it.
	Env []string
	// Models are model ids configured in settings, listed by Models and
	// declared to the endpoint's provider.
	Models []string
	// LookupEnv reads the app's environment; nil means os.LookupEnv. Only
	// the variables of passEnv are handed to opencode.
	LookupEnv func(string) (string, bool)
	// StateDir holds opencode's config home and the session locks. Empty
	// means $XDG_STATE_HOME/boof-runner/opencode, else
	// $HOME/.local/state/boof-runner/opencode, read from the environment
	// opencode runs with (settings first).
	StateDir string
	// TempDir holds each step's role prompt file and the health check's
	// scratch directory; "" means os.TempDir().
	TempDir string
}

// capabilities: typed events, native resume and usage; `opencode run`
// reads its prompt and then no more input.
var capabilities = agent.Capabilities{Streaming: agent.StreamingEvents, MidRunInput: false, NativeResume: true, Usage: true}

// Adapter registers opencode with the app. Its context window is left
// unknown (no rotation on the context estimate): it depends on the model
// of the provider chosen, and opencode compacts a long session itself.
var Adapter = agent.Adapter{
	Name:         Name,
	Bin:          Bin,
	Capabilities: capabilities,
	Prices:       Prices,
	Configurable: true,
	Install:      "npm install -g opencode-ai",
	SignIn:       "opencode auth login",
	KeyEnv:       "OPENAI_API_KEY",
	New: func(c agent.Config) agent.Tool {
		return New(Options{Path: c.Path, Runner: c.Runner, Env: c.Env})
	},
}

// Tool is the opencode adapter. It is safe for concurrent use.
type Tool struct {
	opts Options
}

var _ agent.Tool = (*Tool)(nil)

// ErrNoRunner is returned (wrapped) by Start, and reported by Health, when
// Options.Runner is nil.
var ErrNoRunner = errors.New("opencode: options have no process runner")

// New returns the opencode tool.
func New(opts Options) *Tool {
	if opts.Path == "" {
		opts.Path = Bin
	}
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	if opts.TempDir == "" {
		opts.TempDir = os.TempDir()
	}
	return &Tool{opts: opts}
}

// cli is the tool as the shared OpenAI-compatible CLI code runs it.
func (t *Tool) cli() *openaicli.CLI {
	return &openaicli.CLI{Label: label, Path: t.opts.Path, Runner: t.opts.Runner, Env: t.opts.Env,
		PassEnv: passEnv, LookupEnv: t.opts.LookupEnv, TempDir: t.opts.TempDir}
}

// Name returns "opencode".
func (t *Tool) Name() string { return Name }

// Capabilities: typed events, native resume and usage; no mid-run input.
func (t *Tool) Capabilities() agent.Capabilities { return capabilities }
