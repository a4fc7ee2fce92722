package agent

import (
	"fmt"
	"sort"
)

// Registry maps tool names to tools. It is built once by the app wiring and
// passed to whoever needs it; it is never a global. It is read-only after
// construction, so it is safe for concurrent use.
type Registry struct {
	tools map[string]Tool
}

// NewRegistry returns a registry of tools, keyed by Tool.Name. A later tool
// with the same name replaces an earlier one; nil tools are skipped.
func NewRegistry(tools ...Tool) *Registry {
	r := &Registry{tools: make(map[string]Tool, len(tools))}
	for _, t := range tools {
		if t != nil {
			r.tools[t.Name()] = t
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
