package mock

import (
	"context"
	"os"
	"os/exec"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// Health runs `<command> --version`; the mock needs no key or network.
func (t *Tool) Health(ctx context.Context, _ string) agent.Health {
	h := agent.Health{Tool: Name}
	if len(t.opts.Command) == 0 {
		h.Error = "mock: no command configured"
		return h
	}
	path, err := exec.LookPath(t.opts.Command[0])
	if err != nil {
		h.Error = "mock: " + err.Error()
		return h
	}
	h.Path, h.Installed = path, true
	cmd := exec.CommandContext(ctx, path, append(t.opts.Command[1:], "--version")...)
	cmd.Env = append(os.Environ(), t.opts.Env...)
	cmd.WaitDelay = agent.HealthWaitDelay
	out, err := cmd.Output()
	if err != nil {
		h.Error = "mock: " + err.Error()
		return h
	}
	h.Version = strings.TrimSpace(string(out))
	h.Authenticated, h.Reachable = true, true
	return h
}
