// Package claude is the agent adapter for the Claude Code CLI (`claude`):
// it builds the non-interactive command line, runs it under the PTY runner,
// parses its stream-json output into agent events and a Result, checks its
// health and lists its models.
package claude

import (
	"os"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// Name is the tool's settings name.
const Name = "claude-code"

// Bin is the executable looked up in PATH when Options.Path is empty.
const Bin = "claude"

// stdinPromptAbove is the prompt size from which the prompt goes through
// stdin (stream-json input) instead of argv, which execve limits to 128 KiB
// per argument.
const stdinPromptAbove = 64 << 10

// DefaultPassEnv lists the variables copied from the app's environment into
// claude's (when set), since the PTY runner inherits nothing else.
var DefaultPassEnv = []string{
	"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_MODEL",
	"ANTHROPIC_CUSTOM_HEADERS", "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX",
	"AWS_PROFILE", "AWS_REGION", "CLOUD_ML_REGION", "ANTHROPIC_VERTEX_PROJECT_ID",
	"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy",
	"NODE_EXTRA_CA_CERTS", "XDG_CONFIG_HOME", "USER", "SHELL",
}

// Options configure the claude tool.
type Options struct {
	// Path is the claude executable: a path, or a name looked up in PATH
	// (default Bin).
	Path string
	// Runner starts the processes. Required for Start and Health.
	Runner *proc.Runner
	// Env is extra environment for every run (settings tools.claude-code.env).
	Env []string
	// PassEnv names variables copied from the app's environment when set;
	// nil means DefaultPassEnv, an empty slice copies nothing.
	PassEnv []string
	// LookupEnv reads the app's environment; default os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Models are extra model ids configured in settings.
	Models []string
	// MidRunInput runs claude with --input-format stream-json and a stdin
	// pipe so Run.Send can steer a live turn; false gives it a closed stdin.
	MidRunInput bool
	// StateDir is where the tools each installed claude reports are kept
	// (tools.json), so a read-only step denies only tools it has; "" keeps
	// them in memory only.
	StateDir string
	// Root says whether we run as root (claude then needs IS_SANDBOX=1 for
	// --dangerously-skip-permissions); default os.Geteuid() == 0.
	Root *bool
}

// Adapter registers claude with the app. The tool it builds takes mid-run
// input (stream-json on stdin), so an injected prompt reaches a running step.
var Adapter = agent.Adapter{
	Name:          Name,
	ContextWindow: 200000,
	Bin:           Bin,
	Capabilities:  agent.Capabilities{Streaming: agent.StreamingEvents, MidRunInput: true, NativeResume: true, Usage: true},
	Prices:        Prices,
	Configurable:  true,
	Install:       "npm install -g @anthropic-ai/claude-code",
	SignIn:        "claude",
	KeyEnv:        "ANTHROPIC_API_KEY",
	New: func(c agent.Config) agent.Tool {
		return New(Options{Path: c.Path, Runner: c.Runner, Env: c.Env, MidRunInput: true, StateDir: c.StateDir})
	},
}

// Tool is the Claude Code adapter.
type Tool struct {
	opts  Options
	known *knownTools
}

var _ agent.Tool = (*Tool)(nil)

// New returns the claude tool.
func New(opts Options) *Tool {
	if opts.Path == "" {
		opts.Path = Bin
	}
	if opts.PassEnv == nil {
		opts.PassEnv = DefaultPassEnv
	}
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	if opts.Root == nil {
		root := os.Geteuid() == 0
		opts.Root = &root
	}
	return &Tool{opts: opts, known: newKnownTools(opts.StateDir)}
}

// Name returns "claude-code".
func (t *Tool) Name() string { return Name }

// Capabilities: typed events, native resume, usage; mid-run input when
// Options.MidRunInput is set.
func (t *Tool) Capabilities() agent.Capabilities {
	return agent.Capabilities{Streaming: agent.StreamingEvents, MidRunInput: t.opts.MidRunInput, NativeResume: true, Usage: true}
}

// env builds the environment of one run: passed-through variables, then
// IS_SANDBOX when root, then the tool's and the request's own.
func (t *Tool) env(extra []string) []string {
	var env []string
	for _, k := range t.opts.PassEnv {
		if v, ok := t.opts.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	if *t.opts.Root {
		env = append(env, "IS_SANDBOX=1")
	}
	env = append(env, t.opts.Env...)
	return append(env, extra...)
}

// args builds claude's arguments for req; stdinPrompt says the prompt goes
// through stdin as a stream-json user message; deny lists the tools a
// read-only step runs without. Values use the --flag=value form and the
// prompt comes last after "--", so text starting with a dash is never
// taken for an option.
func args(req agent.Request, stdinPrompt bool, deny []string) []string {
	a := []string{"-p", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"}
	if req.ReadOnly && len(deny) > 0 {
		// Without its edit tools; Bash stays so tests can run (what it
		// writes in the worktree the pipeline reverts).
		a = append(a, "--disallowed-tools="+strings.Join(deny, ","))
	}
	if stdinPrompt {
		a = append(a, "--input-format", "stream-json")
	}
	if req.Model != "" {
		a = append(a, "--model="+req.Model)
	}
	if req.SystemPrompt != "" {
		a = append(a, "--append-system-prompt="+req.SystemPrompt)
	}
	if req.ResumeSession != "" {
		a = append(a, "--resume="+req.ResumeSession)
	}
	for _, d := range req.ReadDirs {
		a = append(a, "--add-dir="+d)
	}
	if !stdinPrompt {
		a = append(a, "--", req.Prompt)
	}
	return a
}
