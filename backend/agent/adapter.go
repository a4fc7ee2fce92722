package agent

import (
	"os/exec"

	"github.com/boof-runner/boof-runner/backend/proc"
)

// Adapter registers one coding-agent CLI with the app: the facts it
// declares about itself and how to build its Tool. Each adapter package
// exports one (claude.Adapter, codex.Adapter, gemini.Adapter,
// mock.Adapter); backend/host lists them, and no other package names a CLI.
type Adapter struct {
	// Name is the tool's settings name (what roles are assigned).
	Name string
	// Bin is the executable looked up in PATH when settings give no path;
	// "" for a tool that is part of the app and so always installed. The
	// tools with a Bin are the agent CLIs: the default of settings
	// limits.switchOrder lists them, in preference order.
	Bin string
	// Capabilities is what the tool New builds can do (its Capabilities).
	Capabilities Capabilities
	// Prices are the list prices of the tool's models, for the cost of a
	// step the tool does not price itself.
	Prices Prices
	// ContextWindow is the context window of the tool's models in tokens
	// (0 = unknown: no rotation on the context estimate).
	ContextWindow int64
	// Configurable is true when settings tools.<Name>.path and .env apply.
	Configurable bool
	// Install is the command that installs the CLI, SignIn the one that
	// signs it in, and KeyEnv the variable that gives it an API key
	// instead: what the first-launch screen tells a user whose tool is
	// missing or not signed in ("" when not needed: a tool of the app).
	Install, SignIn, KeyEnv string
	// New builds the tool.
	New func(Config) Tool
}

// Config is what the composition root hands Adapter.New.
type Config struct {
	// Path is settings tools.<name>.path: the executable, "" for Bin in PATH.
	Path string
	// Env is settings tools.<name>.env as KEY=VALUE pairs.
	Env []string
	// Runner starts every process of the tool.
	Runner *proc.Runner
	// Exe is the app's own executable, for a tool the app runs itself.
	Exe string
	// StateDir is a directory of the data root the tool may keep state in.
	StateDir string
}

// Installed reports whether the tool's executable is found in PATH; a tool
// without Bin always is.
func (a Adapter) Installed() bool {
	if a.Bin == "" {
		return true
	}
	_, err := exec.LookPath(a.Bin)
	return err == nil
}
