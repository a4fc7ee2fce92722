package agent

import (
	"fmt"
	"sort"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Registry maps tool names to tools. It is built once by the app wiring and
// passed to whoever needs it; it is never a global. It is read-only after
// construction, so it is safe for concurrent use.
type Registry struct {
	tools  map[string]Tool
	prices map[string]Prices
}

// NewRegistry returns a registry of tools, keyed by Tool.Name, that knows
// no prices. A later tool with the same name replaces an earlier one; nil
// tools are skipped.
func NewRegistry(tools ...Tool) *Registry {
	r := &Registry{tools: make(map[string]Tool, len(tools)), prices: map[string]Prices{}}
	for _, t := range tools {
		if t != nil {
			r.tools[t.Name()] = t
		}
	}
	return r
}

// Build builds the tool of each adapter with config(a) and returns the
// registry of them, which prices their steps with the adapters' Prices.
func Build(adapters []Adapter, config func(Adapter) Config) *Registry {
	r := NewRegistry()
	for _, a := range adapters {
		if t := a.New(config(a)); t != nil {
			r.tools[t.Name()] = t
			r.prices[t.Name()] = a.Prices
		}
	}
	return r
}

// Get returns the tool registered under name. It returns an error wrapping
// ErrUnknownTool when there is none.
func (r *Registry) Get(name string) (Tool, error) {
	if t, ok := r.tools[name]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("tool %q: %w", name, ErrUnknownTool)
}

// Names lists the registered tool names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.tools))
	for n := range r.tools {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Tools lists the registered tools in the order of Names.
func (r *Registry) Tools() []Tool {
	out := make([]Tool, 0, len(r.tools))
	for _, n := range r.Names() {
		out = append(out, r.tools[n])
	}
	return out
}

// EstimateCost returns the cost in USD of u's tokens for a step of tool
// with model, at the list price the tool's adapter declares, and false
// (cost 0) when the tool declares no price for that model.
func (r *Registry) EstimateCost(tool, model string, u task.Usage) (float64, bool) {
	p, ok := r.prices[tool].Lookup(model)
	if !ok {
		return 0, false
	}
	return p.Cost(u), true
}
