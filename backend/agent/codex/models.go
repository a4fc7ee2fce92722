package codex

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// modelsTimeout bounds the catalog query of Models.
const modelsTimeout = 10 * time.Second

// maxCatalogBytes bounds the catalog output we keep.
const maxCatalogBytes = 16 << 20

// Models lists the models codex offers: its own catalog ("codex debug
// models", the listed ones, Source "tool") when it can be read within ctx
// (at most 10 s), else the catalog of codex 0.171.0 built in here (Source
// "builtin"); then the models configured in settings that are not listed
// yet (Source "settings").
func (c *Tool) Models(ctx context.Context) []agent.Model {
	out := c.toolModels(ctx)
	if len(out) == 0 {
		for _, m := range builtinModels {
			out = append(out, agent.Model{ID: m[0], Label: m[1], Source: agent.ModelSourceBuiltin})
		}
	}
	seen := map[string]bool{}
	for _, m := range out {
		seen[m.ID] = true
	}
	for _, id := range c.opts.Models {
		if id = strings.TrimSpace(id); id != "" && !seen[id] {
			out = append(out, agent.Model{ID: id, Label: id, Source: agent.ModelSourceSettings})
			seen[id] = true
		}
	}
	return out
}

// toolModels runs "codex debug models" and returns its listed models, in
// catalog order; nil when codex is missing, fails or prints no catalog.
func (c *Tool) toolModels(ctx context.Context) []agent.Model {
	if c.opts.Runner == nil {
		return nil
	}
	env := c.env(nil)
	bin, err := c.resolveBin(env)
	if err != nil {
		return nil
	}
	dir, err := os.MkdirTemp(c.opts.TempDir, "codex-models-*")
	if err != nil {
		return nil
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(ctx, modelsTimeout)
	defer cancel()
	var out bytes.Buffer
	h, err := c.opts.Runner.Start(ctx, proc.Spec{Path: bin, Args: append(configArgs(c.opts.ConfigOverrides), "debug", "models"),
		Dir: dir, Env: env, Grace: time.Second,
		OnChunk: func(b []byte) {
			if out.Len() < maxCatalogBytes {
				out.Write(b)
			}
		}})
	if err != nil {
		return nil
	}
	if h.Wait().Err() != nil {
		return nil
	}
	return parseCatalog(out.Bytes())
}

// parseCatalog reads the JSON catalog of "codex debug models", skipping
// any text before it, and returns the models whose visibility is "list".
func parseCatalog(b []byte) []agent.Model {
	i := bytes.Index(b, []byte(`{`))
	if i < 0 {
		return nil
	}
	var cat struct {
		Models []struct {
			Slug        string `json:"slug"`
			DisplayName string `json:"display_name"`
			Visibility  string `json:"visibility"`
		} `json:"models"`
	}
	if json.NewDecoder(bytes.NewReader(b[i:])).Decode(&cat) != nil {
		return nil
	}
	var out []agent.Model
	for _, m := range cat.Models {
		if m.Slug == "" || m.Visibility != "list" || !modelRe().MatchString(m.Slug) {
			continue
		}
		label := m.DisplayName
		if label == "" {
			label = m.Slug
		}
		out = append(out, agent.Model{ID: m.Slug, Label: label, Source: agent.ModelSourceTool})
	}
	return out
}

// configArgs turns config overrides into -c arguments.
func configArgs(overrides []string) []string {
	out := make([]string, 0, 2*len(overrides))
	for _, o := range overrides {
		out = append(out, "-c", o)
	}
	return out
}

// Prices are the list prices of the OpenAI models codex runs, USD per
// million tokens, matched as a prefix of the model name (see agent.Prices).
var Prices = agent.Prices{
	"gpt-5-codex": {In: 1.25, Out: 10, CacheRead: 0.125},
	"gpt-5-mini":  {In: 0.25, Out: 2, CacheRead: 0.025},
	"gpt-5":       {In: 1.25, Out: 10, CacheRead: 0.125},
	"gpt-4.1":     {In: 2, Out: 8, CacheRead: 0.5},
	"o4-mini":     {In: 1.1, Out: 4.4, CacheRead: 0.275},
}

// builtinModels are the listed models of the catalog of codex 0.171.0
// ("codex debug models"), id and label, in its order; Models falls back
// to them when codex cannot be asked.
var builtinModels = [][2]string{
	{"gpt-6.2-sol", "GPT-6.2-Sol"},
	{"gpt-6.2-astra", "GPT-6.2-Astra"},
	{"gpt-6-astra", "GPT-6-Astra"},
	{"gpt-6.1-sol", "GPT-6.1-Sol"},
	{"gpt-6.1-terra", "GPT-6.1 Terra"},
	{"gpt-6-sol", "GPT-6-Sol"},
	{"gpt-6-luna", "GPT-6-Luna"},
	{"gpt-5.6-sol", "GPT-5.6-Sol"},
	{"gpt-5.6-terra", "GPT-5.6-Terra"},
	{"gpt-5.6-luna", "GPT-5.6-Luna"},
	{"gpt-5.5", "GPT-5.5"},
}
