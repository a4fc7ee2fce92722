package qwen

import (
	"context"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// Prices are list prices of the Qwen models qwen is mostly run with, USD
// per million tokens, matched as a prefix of the model name (see
// agent.Prices): Alibaba Cloud Model Studio's international prices of the
// first tier (prompts up to 32K tokens; longer prompts cost more, so an
// estimate from them is a floor). qwen reports no cost itself; a model of
// another provider behind the OpenAI-compatible endpoint is not priced.
var Prices = agent.Prices{
	"qwen3-coder-plus":  {In: 1, Out: 5, CacheRead: 0.1},
	"qwen3-coder-flash": {In: 0.3, Out: 1.5, CacheRead: 0.03},
	"qwen3-max":         {In: 1.2, Out: 6, CacheRead: 0.24},
}

// builtinModels are the Qwen models offered by Alibaba Cloud's
// OpenAI-compatible endpoint that qwen is made for.
var builtinModels = []agent.Model{
	{ID: "qwen3-coder-plus", Label: "Qwen3 Coder Plus"},
	{ID: "qwen3-coder-flash", Label: "Qwen3 Coder Flash"},
	{ID: "qwen3-max", Label: "Qwen3 Max"},
}

// Models lists the model the environment names (OPENAI_MODEL, the one qwen
// runs without a model setting; Source "settings" when settings set it,
// else "tool"), the built-in Qwen models, then the models configured in
// settings. It starts no process.
func (t *Tool) Models(context.Context) []agent.Model {
	seen := map[string]bool{}
	var out []agent.Model
	add := func(id, label, source string) {
		if id = strings.TrimSpace(id); id != "" && !seen[id] && modelRe().MatchString(id) {
			seen[id] = true
			out = append(out, agent.Model{ID: id, Label: label, Source: source})
		}
	}
	if m := t.cli().Lookup(t.opts.Env, "OPENAI_MODEL"); m != "" {
		src := agent.ModelSourceTool
		if envHas(t.opts.Env, "OPENAI_MODEL") {
			src = agent.ModelSourceSettings
		}
		add(m, m+" (OPENAI_MODEL)", src)
	}
	for _, m := range builtinModels {
		add(m.ID, m.Label, agent.ModelSourceBuiltin)
	}
	for _, id := range t.opts.Models {
		add(id, id, agent.ModelSourceSettings)
	}
	return out
}

// envHas reports whether env sets key.
func envHas(env []string, key string) bool {
	for _, kv := range env {
		if k, _, ok := strings.Cut(kv, "="); ok && k == key {
			return true
		}
	}
	return false
}
