package app

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/settings"
)

// healthTTL is how long a passing tool check is shown again instead of
// being re-run when the Settings screen opens: each check starts the CLI
// (`--version`, a smoke prompt) and, for a real CLI, makes a model request.
// A failing check is re-run every time (the user may have just fixed it),
// and Test always runs one.
const healthTTL = 10 * time.Minute

// healthCache keeps each tool's last passing check with what it ran with
// (the tool's settings and smoke model): a change to either runs it again.
type healthCache struct {
	mu sync.Mutex
	m  map[string]healthEntry
}

type healthEntry struct {
	view ToolHealthView
	with string
}

func (c *healthCache) get(tool, with string, now time.Time) (ToolHealthView, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[tool]
	if !ok || e.with != with || now.Sub(e.view.CheckedAt) >= healthTTL || now.Before(e.view.CheckedAt) {
		return ToolHealthView{}, false
	}
	return e.view, true
}

// put keeps v when it passed and forgets the tool's entry otherwise.
func (c *healthCache) put(v ToolHealthView, with string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]healthEntry{}
	}
	if !v.Installed || !v.Authenticated || v.Error != "" {
		delete(c.m, v.Tool)
		return
	}
	c.m[v.Tool] = healthEntry{view: v, with: with}
}

// checkedWith is what a check of tool runs with under the settings cur:
// the tool's settings and the smoke model.
func checkedWith(cur settings.Settings, tool string) string {
	b, _ := json.Marshal(struct {
		Config any    `json:"config"`
		Model  string `json:"model"`
	}{cur.Tools[tool], smokeModel(cur, tool)})
	return string(b)
}

// ToolHealth reports every registered tool: a passing check younger than
// healthTTL with the same settings is shown again, the others are checked
// now, in parallel (at most 20 s).
func (s *SettingsService) ToolHealth() ([]ToolHealthView, error) {
	cur, _ := s.file.Load()
	tools := s.tools()
	out := make([]ToolHealthView, len(tools))
	with := make([]string, len(tools))
	var stale []agent.Tool
	var at []int
	now := time.Now().UTC()
	for i, t := range tools {
		with[i] = checkedWith(cur, t.Name())
		if v, ok := s.healthCache.get(t.Name(), with[i], now); ok {
			out[i] = v
			continue
		}
		stale, at = append(stale, t), append(at, i)
	}
	for j, v := range s.check(cur, stale) {
		out[at[j]] = v
		s.healthCache.put(v, with[at[j]])
	}
	return out, nil
}
