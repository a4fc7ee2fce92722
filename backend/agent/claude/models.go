package claude

import (
	"context"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// builtinModels are the aliases and ids claude 2.1 knows.
var builtinModels = []agent.Model{
	{ID: "sonnet", Label: "Sonnet (latest)"},
	{ID: "opus", Label: "Opus (latest)"},
	{ID: "haiku", Label: "Haiku (latest)"},
	{ID: "claude-sonnet-5", Label: "Claude Sonnet 5"},
	{ID: "claude-opus-4-8", Label: "Claude Opus 4.8"},
	{ID: "claude-sonnet-4-6", Label: "Claude Sonnet 4.6"},
	{ID: "claude-haiku-4-5", Label: "Claude Haiku 4.5"},
}

// Models lists the known aliases and ids, then the configured ones.
func (t *Tool) Models(context.Context) []agent.Model {
	seen := map[string]bool{}
	var out []agent.Model
	for _, m := range builtinModels {
		m.Source = agent.ModelSourceBuiltin
		seen[m.ID] = true
		out = append(out, m)
	}
	for _, id := range t.opts.Models {
		if id = strings.TrimSpace(id); id != "" && !seen[id] {
			seen[id] = true
			out = append(out, agent.Model{ID: id, Label: id, Source: agent.ModelSourceSettings})
		}
	}
	return out
}
