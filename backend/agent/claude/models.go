package claude

import (
	"context"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// Prices are the list prices of claude's models, USD per million tokens,
// matched as a prefix of the model name (see agent.Prices).
var Prices = agent.Prices{
	"claude-opus-4":    {In: 15, Out: 75, CacheRead: 1.5, CacheWrite: 18.75},
	"claude-sonnet-4":  {In: 3, Out: 15, CacheRead: 0.3, CacheWrite: 3.75},
	"claude-haiku-4":   {In: 1, Out: 5, CacheRead: 0.1, CacheWrite: 1.25},
	"claude-3-5-haiku": {In: 0.8, Out: 4, CacheRead: 0.08, CacheWrite: 1},
	"opus":             {In: 15, Out: 75, CacheRead: 1.5, CacheWrite: 18.75},
	"sonnet":           {In: 3, Out: 15, CacheRead: 0.3, CacheWrite: 3.75},
	"haiku":            {In: 1, Out: 5, CacheRead: 0.1, CacheWrite: 1.25},
}

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
