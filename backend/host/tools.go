package host

import (
	"os/exec"
	"path/filepath"
	"slices"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/claude"
	"github.com/boof-runner/boof-runner/backend/agent/codex"
	"github.com/boof-runner/boof-runner/backend/agent/gemini"
	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/agent/opencode"
	"github.com/boof-runner/boof-runner/backend/agent/qwen"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/pipeline"
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
	gemini.Adapter,
	opencode.Adapter,
	qwen.Adapter,
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

// Catalog returns the tools settings may assign, in preference order,
// which of them are installed, and the default of limits.switchOrder: the
// agent CLIs (the adapters with an executable of their own), in
// preference order.
func Catalog() settings.Catalog {
	c := settings.Catalog{Installed: Installed}
	for _, a := range adapters {
		c.Names = append(c.Names, a.Name)
		if a.Configurable {
			c.Configurable = append(c.Configurable, a.Name)
		}
		if a.Bin != "" {
			c.SwitchOrder = append(c.SwitchOrder, a.Name)
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

// SwitchTarget returns the pipeline's Switch, with settings read at the
// call: the tools of limits.switchOrder other than tool, in its order,
// each with whether it is installed (its settings path, else its
// executable in PATH, is found); none when tool is not in the list.
func SwitchTarget(current func() settings.Settings) func(tool string) []pipeline.SwitchCandidate {
	return func(tool string) []pipeline.SwitchCandidate {
		set := current()
		order := set.Limits.SwitchOrder
		if !slices.Contains(order, tool) {
			return nil
		}
		var out []pipeline.SwitchCandidate
		for _, name := range order {
			if name == tool {
				continue
			}
			out = append(out, pipeline.SwitchCandidate{Tool: name, Installed: installedWith(set, name)})
		}
		return out
	}
}

// installedWith reports whether tool is installed under set: its settings
// path when it has one, else its executable in PATH.
func installedWith(set settings.Settings, tool string) bool {
	a, ok := adapter(tool)
	if !ok {
		return false
	}
	if p := set.Tools[a.Name].Path; p != "" && a.Configurable {
		_, err := exec.LookPath(p)
		return err == nil
	}
	return a.Installed()
}

// ContextWindow returns the context window an adapter declares for tool,
// 0 when unknown.
func ContextWindow(tool string) int64 {
	a, _ := adapter(tool)
	return a.ContextWindow
}
