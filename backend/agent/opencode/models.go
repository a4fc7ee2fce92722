package opencode

import (
	"bytes"
	"context"
	"os"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// Prices is empty: opencode prices the models it knows itself (its
// models.dev catalog; the cost of each step is in its step_finish event),
// and the models behind an OpenAI-compatible endpoint have no list price
// that holds for every provider.
var Prices = agent.Prices{}

// modelsTimeout bounds the catalog query of Models.
const modelsTimeout = 10 * time.Second

// maxCatalogBytes bounds the catalog output kept.
const maxCatalogBytes = 4 << 20

// Models lists the model of the endpoint (OPENAI_MODEL as Provider/model,
// what a step runs without a model setting, when OPENAI_BASE_URL names an
// endpoint; Source "settings"), then the models opencode offers with the
// user's logins and providers ("opencode models", Source "tool") when it
// answers within ctx and 10 s, then the models configured in settings.
func (t *Tool) Models(ctx context.Context) []agent.Model {
	seen := map[string]bool{}
	var out []agent.Model
	add := func(id, label, source string) {
		if id = strings.TrimSpace(id); id != "" && !seen[id] && modelRe().MatchString(id) {
			seen[id] = true
			out = append(out, agent.Model{ID: id, Label: label, Source: source})
		}
	}
	env := t.cli().Environ(nil)
	if t.cli().Lookup(env, "OPENAI_BASE_URL") != "" {
		if m := t.cli().Lookup(env, "OPENAI_MODEL"); m != "" {
			add(Provider+"/"+m, m+" (OPENAI_BASE_URL)", agent.ModelSourceSettings)
		}
	}
	for _, id := range t.catalog(ctx, env) {
		add(id, id, agent.ModelSourceTool)
	}
	for _, id := range t.opts.Models {
		add(id, id, agent.ModelSourceSettings)
	}
	return out
}

// catalog runs "opencode models" as a step would run (same config home and
// config) and returns the "provider/model" ids it prints; nil when opencode
// is missing, fails or is too slow.
func (t *Tool) catalog(ctx context.Context, env []string) []string {
	if t.opts.Runner == nil {
		return nil
	}
	bin, err := t.cli().ResolveBin(env)
	if err != nil {
		return nil
	}
	dir, err := os.MkdirTemp(t.opts.TempDir, "opencode-models-*")
	if err != nil {
		return nil
	}
	defer os.RemoveAll(dir)
	st, err := t.prepare(env, agent.Request{})
	if err != nil {
		return nil
	}
	defer st.cleanup()
	ctx, cancel := context.WithTimeout(ctx, modelsTimeout)
	defer cancel()
	var out bytes.Buffer
	h, err := t.opts.Runner.Start(ctx, proc.Spec{Path: bin, Args: []string{"models"}, Dir: dir, Env: append(env, st.env...),
		Grace: time.Second, OnChunk: func(b []byte) {
			if out.Len() < maxCatalogBytes {
				out.Write(b)
			}
		}})
	if err != nil || h.Wait().Err() != nil {
		return nil
	}
	var ids []string
	for _, l := range strings.Split(proc.ForDisplay(out.Bytes()), "\n") {
		if l = strings.TrimSpace(l); strings.Contains(l, "/") && modelRe().MatchString(l) {
			ids = append(ids, l)
		}
	}
	return ids
}
