package task

// Usage is token usage and cost, of one execution or summed over many.
type Usage struct {
	TokensIn   int64   `json:"tokens_in"`
	TokensOut  int64   `json:"tokens_out"`
	CacheRead  int64   `json:"cache_read"`
	CacheWrite int64   `json:"cache_write"`
	CostUSD    float64 `json:"cost_usd"`
}

// Add returns u + o.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		TokensIn: u.TokensIn + o.TokensIn, TokensOut: u.TokensOut + o.TokensOut,
		CacheRead: u.CacheRead + o.CacheRead, CacheWrite: u.CacheWrite + o.CacheWrite,
		CostUSD: u.CostUSD + o.CostUSD,
	}
}
