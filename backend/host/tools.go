package host

import (
	"os/exec"
	"path/filepath"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/claude"
	"github.com/boof-runner/boof-runner/backend/agent/codex"
	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/settings"
)

// adapters are the agent CLIs the app runs, in preference order: a role
// without a setting uses the first one installed. The mock is part of the
// app, always installed, and so last. A new CLI is one adapter package and
// one line here.
var adapters = []agent.Adapter{
	claude.Adapter,
	codex.Adapter,
	mock.Adapter,
}

// Adapters returns the registered adapters, in preference order.
func Adapters() []agent.Adapter { return append([]agent.Adapter(nil), adapters...) }

// adapter returns the adapter registered as tool.
func adapter(tool string) (agent.Adapter, bool) {
	for _, a := range adapters {
		if a.Name == tool {
			return a, true
		}
	}
	return agent.Adapter{}, false
}

// Installed reports whether a tool's CLI is found in PATH; the mock always
// is, and an unknown tool is not.
func Installed(tool string) bool {
	a, ok := adapter(tool)
	return ok && a.Installed()
}

// MidRunInput reports whether a tool, as Tools builds it, takes input while
// a step runs (so an injected prompt reaches the running step).
func MidRunInput(tool string) bool {
	a, ok := adapter(tool)
	return ok && a.Capabilities.MidRunInput
}

// Catalog returns the tools settings may assign, in preference order, and
// which of them are installed.
func Catalog() settings.Catalog {
	c := settings.Catalog{Installed: Installed}
	for _, a := range adapters {
		c.Names = append(c.Names, a.Name)
		if a.Configurable {
			c.Configurable = append(c.Configurable, a.Name)
		}
	}
	return c
}

// ToolNames lists the names of the registered tools, in registration order.
func ToolNames() []string {
	names := make([]string, len(adapters))
	for i, a := range adapters {
		names[i] = a.Name
	}
	return names
}

// SettingsFile returns the settings file of a data root, with the tools of
// Catalog.
func SettingsFile(paths dataroot.Paths) *settings.File {
	return settings.NewFile(paths.Settings(), Catalog())
}

// Tools builds the agent tool registry the way the runner uses it: every
// adapter's tool, with the path and environment of settings, its processes
// started by procs, the mock's agent program run as exe (the app binary)
// with mock.AgentCommand. Doctor and the Settings screen use the same
// registry for health checks.
func Tools(set settings.Settings, procs *proc.Runner, exe string, paths dataroot.Paths) *agent.Registry {
	return agent.Build(adapters, func(a agent.Adapter) agent.Config {
		c := agent.Config{Runner: procs, Exe: exe, StateDir: filepath.Join(paths.Root, a.Name+"-state")}
		if a.Configurable {
			c.Path, c.Env = set.Tools[a.Name].Path, set.EnvList(a.Name)
		}
		return c
	})
}

// SwitchTarget returns the pipeline's Switch: the tool an adapter declares
// as its SwitchTo, and whether that tool is installed (its settings path,
// else its executable in PATH, is found), with settings read at the call.
func SwitchTarget(current func() settings.Settings) func(tool string) (string, bool) {
	return func(tool string) (string, bool) {
		a, ok := adapter(tool)
		if !ok || a.SwitchTo == "" {
			return "", false
		}
		to, ok := adapter(a.SwitchTo)
		if !ok {
			return a.SwitchTo, false
		}
		if p := current().Tools[to.Name].Path; p != "" && to.Configurable {
			_, err := exec.LookPath(p)
			return to.Name, err == nil
		}
		return to.Name, to.Installed()
	}
}

// ContextWindow returns the context window an adapter declares for tool,
// 0 when unknown.
func ContextWindow(tool string) int64 {
	a, _ := adapter(tool)
	return a.ContextWindow
}
