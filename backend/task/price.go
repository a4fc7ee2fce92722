package task

import "strings"

// Price is a model's list price in US dollars per million tokens.
type Price struct {
	In, Out, CacheRead, CacheWrite float64
}

// prices is the one table of model prices used to estimate cost when a tool
// does not report it. To update: edit the numbers (USD per million tokens,
// from the vendor's public price page) or add a row. Keys are matched as a
// prefix of the model name, longest first, so "claude-sonnet-4" covers dated
// variants such as "claude-sonnet-4-5-20250929".
var prices = map[string]Price{
	"claude-opus-4":    {In: 15, Out: 75, CacheRead: 1.5, CacheWrite: 18.75},
	"claude-sonnet-4":  {In: 3, Out: 15, CacheRead: 0.3, CacheWrite: 3.75},
	"claude-haiku-4":   {In: 1, Out: 5, CacheRead: 0.1, CacheWrite: 1.25},
	"claude-3-5-haiku": {In: 0.8, Out: 4, CacheRead: 0.08, CacheWrite: 1},
	"opus":             {In: 15, Out: 75, CacheRead: 1.5, CacheWrite: 18.75},
	"sonnet":           {In: 3, Out: 15, CacheRead: 0.3, CacheWrite: 3.75},
	"haiku":            {In: 1, Out: 5, CacheRead: 0.1, CacheWrite: 1.25},
	"gpt-5-codex":      {In: 1.25, Out: 10, CacheRead: 0.125},
	"gpt-5-mini":       {In: 0.25, Out: 2, CacheRead: 0.025},
	"gpt-5":            {In: 1.25, Out: 10, CacheRead: 0.125},
	"gpt-4.1":          {In: 2, Out: 8, CacheRead: 0.5},
	"o4-mini":          {In: 1.1, Out: 4.4, CacheRead: 0.275},
	"mock":             {},
}

// LookupPrice returns the price of model by longest matching prefix, and
// whether one was found.
func LookupPrice(model string) (Price, bool) {
	model = strings.ToLower(strings.TrimSpace(model))
	best, found := "", false
	for k := range prices {
		if strings.HasPrefix(model, k) && len(k) > len(best) {
			best, found = k, true
		}
	}
	return prices[best], found
}

// EstimateCost returns the cost in USD of u's tokens at model's list price,
// and false when the model is not in the table (the cost is then 0).
func EstimateCost(model string, u Usage) (float64, bool) {
	p, ok := LookupPrice(model)
	if !ok {
		return 0, false
	}
	c := float64(u.TokensIn)*p.In + float64(u.TokensOut)*p.Out +
		float64(u.CacheRead)*p.CacheRead + float64(u.CacheWrite)*p.CacheWrite
	return c / 1e6, true
}
