package gemini

import (
	"context"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Prices are the list prices of the Gemini API's models, USD per million
// tokens (prompts up to 200k tokens), matched as a prefix of the model
// name (see agent.Prices). gemini reports its tokens per model, so each
// model it used (a side call on a smaller model included) is priced by
// its own row.
var Prices = agent.Prices{
	"gemini-2.5-pro":        {In: 1.25, Out: 10, CacheRead: 0.125},
	"gemini-2.5-flash":      {In: 0.30, Out: 2.50, CacheRead: 0.03},
	"gemini-2.5-flash-lite": {In: 0.10, Out: 0.40, CacheRead: 0.01},
	"gemini-3-pro":          {In: 2, Out: 12, CacheRead: 0.20},
	"gemini-3.1-pro":        {In: 2, Out: 12, CacheRead: 0.20},
	"gemini-3-flash":        {In: 0.50, Out: 3, CacheRead: 0.05},
}

// builtinModels are the models and aliases gemini 0.61 knows ("auto"
// lets gemini choose per request).
var builtinModels = []agent.Model{
	{ID: "auto", Label: "Auto (gemini chooses)"},
	{ID: "pro", Label: "Pro (latest)"},
	{ID: "flash", Label: "Flash (latest)"},
	{ID: "flash-lite", Label: "Flash-Lite (latest)"},
	{ID: "gemini-3.1-pro-preview", Label: "Gemini 3.1 Pro (preview)"},
	{ID: "gemini-3-pro-preview", Label: "Gemini 3 Pro (preview)"},
	{ID: "gemini-3-flash-preview", Label: "Gemini 3 Flash (preview)"},
	{ID: "gemini-3.5-flash", Label: "Gemini 3.5 Flash"},
	{ID: "gemini-3.1-flash-lite", Label: "Gemini 3.1 Flash-Lite"},
	{ID: "gemini-2.5-pro", Label: "Gemini 2.5 Pro"},
	{ID: "gemini-2.5-flash", Label: "Gemini 2.5 Flash"},
	{ID: "gemini-2.5-flash-lite", Label: "Gemini 2.5 Flash-Lite"},
}

// Models lists the models and aliases gemini knows (it has no command to
// list the account's models), then the ones configured in settings.
func (t *Tool) Models(context.Context) []agent.Model {
	seen := map[string]bool{}
	out := make([]agent.Model, 0, len(builtinModels)+len(t.opts.Models))
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

// taskUsage is u's tokens for pricing.
func taskUsage(u agent.Usage) task.Usage {
	return task.Usage{TokensIn: u.InputTokens, TokensOut: u.OutputTokens, CacheRead: u.CacheReadTokens, CacheWrite: u.CacheWriteTokens}
}
