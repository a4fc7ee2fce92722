package agent

import (
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Price is a model's list price in US dollars per million tokens.
type Price struct {
	In, Out, CacheRead, CacheWrite float64
}

// Cost returns the cost in USD of u's tokens at p.
func (p Price) Cost(u task.Usage) float64 {
	c := float64(u.TokensIn)*p.In + float64(u.TokensOut)*p.Out +
		float64(u.CacheRead)*p.CacheRead + float64(u.CacheWrite)*p.CacheWrite
	return c / 1e6
}

// Prices is one tool's table of model prices. Keys are matched as a prefix
// of the model name, longest first, so "claude-sonnet-4" covers dated
// variants such as "claude-sonnet-4-5-20250929". To update: edit the
// numbers (USD per million tokens, from the vendor's public price page) or
// add a row in the adapter that declares them.
type Prices map[string]Price

// Lookup returns the price of model by longest matching prefix, and whether
// one was found.
func (p Prices) Lookup(model string) (Price, bool) {
	model = strings.ToLower(strings.TrimSpace(model))
	best, found := "", false
	for k := range p {
		if strings.HasPrefix(model, k) && len(k) > len(best) {
			best, found = k, true
		}
	}
	return p[best], found
}
