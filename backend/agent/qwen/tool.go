// Package qwen is the agent.Tool adapter for Qwen Code (`qwen`, npm
// @qwen-code/qwen-code): it runs `qwen --output-format stream-json --yolo
// --auth-type openai` through the PTY runner with the prompt as a
// stream-json message on stdin, parses its Claude-Code-shaped stream into
// agent events, and gives every session its own QWEN_HOME so that no two
// runs share a session file and the user's ~/.qwen is never written.
package qwen

import (
	"errors"
	"os"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/openaicli"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// Name is the tool's settings name.
const Name = "qwen-code"

// Bin is the executable looked up in PATH when Options.Path is empty.
const Bin = "qwen"

// label starts the adapter's error texts.
const label = "qwen"

// passEnv lists the variables of the app's environment handed to qwen (the
// runner passes nothing else but PATH, HOME, TERM and LANG): the OpenAI-
// compatible endpoint and key, the provider keys qwen knows, where the
// per-session homes live, proxies and certificates.
var passEnv = []string{
	"OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL",
	"DASHSCOPE_API_KEY", "BAILIAN_CODING_PLAN_API_KEY", "BAILIAN_TOKEN_PLAN_API_KEY",
	"OPENROUTER_API_KEY", "REQUESTY_API_KEY", "XDG_STATE_HOME",
	"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy",
	"NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR", "USER", "SHELL",
}

// Options configure the qwen tool.
type Options struct {
	// Path is the qwen executable: a path, or a name looked up in the PATH
	// of the effective environment. Empty means Bin.
	Path string
	// Runner starts every qwen process. Required for Start and Health.
	Runner *proc.Runner
	// Env is extra environment (KEY=VALUE) for every qwen process, from
	// settings tools.qwen-code.env; Request.Env is added after it.
	Env []string
	// Models are model ids configured in settings, listed by Models.
	Models []string
	// LookupEnv reads the app's environment; nil means os.LookupEnv. Only
	// the variables of passEnv are handed to qwen.
	LookupEnv func(string) (string, bool)
	// HomesDir holds one QWEN_HOME per session. Empty means
	// $XDG_STATE_HOME/boof-runner/qwen-code, else
	// $HOME/.local/state/boof-runner/qwen-code, read from the environment
	// qwen runs with (settings first): outside the data root, since qwen's
	// session files keep the conversation as the model saw it.
	HomesDir string
	// TempDir holds the health check's throwaway homes; "" means os.TempDir().
	TempDir string
}

// capabilities: typed events, native resume, usage; qwen reads follow-up
// messages from its stream-json input while a step runs (it answers them
// as further turns of the same session before the step ends).
var capabilities = agent.Capabilities{Streaming: agent.StreamingEvents, MidRunInput: true, NativeResume: true, Usage: true}

// Adapter registers Qwen Code with the app. Its context window is left
// unknown (no rotation on the context estimate): it depends on the model
// the endpoint serves, and qwen compresses a long session itself.
var Adapter = agent.Adapter{
	Name:         Name,
	Bin:          Bin,
	Capabilities: capabilities,
	Prices:       Prices,
	Configurable: true,
	Install:      "npm install -g @qwen-code/qwen-code",
	KeyEnv:       "OPENAI_API_KEY",
	New: func(c agent.Config) agent.Tool {
		return New(Options{Path: c.Path, Runner: c.Runner, Env: c.Env})
	},
}

// Tool is the Qwen Code adapter. It is safe for concurrent use.
type Tool struct {
	opts Options
}

var _ agent.Tool = (*Tool)(nil)

// ErrNoRunner is returned (wrapped) by Start, and reported by Health, when
// Options.Runner is nil.
var ErrNoRunner = errors.New("qwen: options have no process runner")

// New returns the qwen tool.
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

// Name returns "qwen-code".
func (t *Tool) Name() string { return Name }

// Capabilities: typed events, mid-run input, native resume and usage.
func (t *Tool) Capabilities() agent.Capabilities { return capabilities }
