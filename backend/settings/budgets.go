package settings

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// Budget modes (Limit.Mode).
const (
	// ModeWarn records spend and warns at 80 % and 100 % (the default).
	ModeWarn = "warn"
	// ModeCap also stops the live steps the limit covers when it is
	// reached, and the queue claims none of its tasks until it is raised or
	// its period rolls over.
	ModeCap = "cap"
)

// Bounds of budget and breaker values, enforced by Validate.
const (
	MaxBudgetUSD     = 1_000_000
	MaxBudgetTokens  = 1_000_000_000_000
	MaxToolCalls     = 100_000
	MaxRepeatFailure = 1_000
	MaxNoProgress    = 10_000
	MaxTokensPerMin  = 1_000_000_000_000
	minVelocityMs    = 1_000
	maxVelocityMs    = 3_600_000
)

// Defaults of the circuit breakers (settings.breakers).
const (
	DefaultToolCalls        = 200
	DefaultRepeatFailures   = 3
	DefaultNoProgress       = 12
	DefaultTokensPerMinute  = 400_000
	DefaultVelocityWindowMs = 30_000
)

// Limit is one budget: a limit in US dollars and/or tokens, and what
// reaching it does. A nil pointer field is "no limit of that kind".
type Limit struct {
	// USD is the limit in US dollars.
	USD *float64 `json:"usd,omitempty"`
	// Tokens is the limit in tokens: input + output + cache writes (cache
	// reads, billed at a tenth of input, count in USD only).
	Tokens *int64 `json:"tokens,omitempty"`
	// Mode is ModeWarn ("" means warn) or ModeCap.
	Mode string `json:"mode,omitempty"`
}

// Capped reports whether reaching the limit stops work (mode cap).
func (l Limit) Capped() bool { return l.Mode == ModeCap }

// ToolBudgets holds the budgets of one tool: settings.budgets.tools.<name>.
// Each counts only that tool's spend.
type ToolBudgets struct {
	Task    *Limit `json:"task,omitempty"`
	Daily   *Limit `json:"daily,omitempty"`
	Monthly *Limit `json:"monthly,omitempty"`
}

// Budgets holds settings.budgets. Task applies to each task's own spend,
// Daily and Monthly to the spend of all tasks in the calendar day or month
// of the machine's local time; nil means no budget of that scope.
type Budgets struct {
	Task    *Limit                 `json:"task,omitempty"`
	Daily   *Limit                 `json:"daily,omitempty"`
	Monthly *Limit                 `json:"monthly,omitempty"`
	Tools   map[string]ToolBudgets `json:"tools,omitempty"`
}

// Breakers holds settings.breakers: the per-step circuit breakers. A zero
// value turns that breaker off.
type Breakers struct {
	// ToolCalls stops a step at its Nth tool call.
	ToolCalls int `json:"toolCalls"`
	// RepeatFailures stops a step whose same tool call fails with the same
	// error this many times in a row.
	RepeatFailures int `json:"repeatFailures"`
	// NoProgress stops a step after this many tool results in a row with no
	// file change and no new successful output.
	NoProgress int `json:"noProgress"`
	// TokensPerMinute stops a step that uses tokens faster than this,
	// measured over the last minute once the step ran VelocityWindowMs.
	TokensPerMinute int64 `json:"tokensPerMinute"`
	// VelocityWindowMs is how long a step runs before its token velocity
	// is measured.
	VelocityWindowMs int64 `json:"velocityWindowMs"`
}

// DefaultBreakers returns the breakers' defaults.
func DefaultBreakers() Breakers {
	return Breakers{ToolCalls: DefaultToolCalls, RepeatFailures: DefaultRepeatFailures, NoProgress: DefaultNoProgress,
		TokensPerMinute: DefaultTokensPerMinute, VelocityWindowMs: DefaultVelocityWindowMs}
}

// BudgetScope is one configured budget as the accounting sees it.
type BudgetScope struct {
	// Key is its settings key below "budgets" ("daily", "tools.codex.task").
	Key string
	// Period is "task", "daily" or "monthly".
	Period string
	// Tool is the tool whose spend it counts, "" for all tools.
	Tool  string
	Limit Limit
}

// Budget periods (BudgetScope.Period).
const (
	PeriodTask    = "task"
	PeriodDaily   = "daily"
	PeriodMonthly = "monthly"
)

// Scopes lists every configured budget: task, daily, monthly, then each
// tool's (sorted by name) in the same order.
func (b Budgets) Scopes() []BudgetScope {
	var out []BudgetScope
	add := func(prefix, tool string, task, daily, monthly *Limit) {
		for _, p := range []struct {
			period string
			l      *Limit
		}{{PeriodTask, task}, {PeriodDaily, daily}, {PeriodMonthly, monthly}} {
			if p.l != nil {
				out = append(out, BudgetScope{Key: prefix + p.period, Period: p.period, Tool: tool, Limit: *p.l})
			}
		}
	}
	add("", "", b.Task, b.Daily, b.Monthly)
	for _, name := range slices.Sorted(maps.Keys(b.Tools)) {
		tb := b.Tools[name]
		add("tools."+name+".", name, tb.Task, tb.Daily, tb.Monthly)
	}
	return out
}

// budgetProblems appends a problem for every bad budget or breaker value.
func (s Settings) budgetProblems(bad func(key, format string, args ...any)) {
	limit := func(key string, l *Limit) {
		if l == nil {
			return
		}
		if l.USD == nil && l.Tokens == nil {
			bad(key, "must set usd or tokens (remove it for no budget)")
		}
		if v := l.USD; v != nil && (math.IsNaN(*v) || *v <= 0 || *v > MaxBudgetUSD) {
			bad(key+".usd", "must be an amount of US dollars above 0 and at most %d (got %s)", MaxBudgetUSD, fmtNumber(*v))
		}
		if v := l.Tokens; v != nil && (*v <= 0 || *v > MaxBudgetTokens) {
			bad(key+".tokens", "must be a number of tokens between 1 and %d (got %d)", int64(MaxBudgetTokens), *v)
		}
		if l.Mode != "" && l.Mode != ModeWarn && l.Mode != ModeCap {
			bad(key+".mode", "must be warn or cap (got %q)", l.Mode)
		}
	}
	b := s.Budgets
	limit("budgets.task", b.Task)
	limit("budgets.daily", b.Daily)
	limit("budgets.monthly", b.Monthly)
	for _, name := range slices.Sorted(maps.Keys(b.Tools)) {
		key := "budgets.tools." + name
		if !slices.Contains(s.catalog.Names, name) {
			bad(key, "names no tool: budgets are kept per tool for %s", strings.Join(s.catalog.Names, ", "))
			continue
		}
		tb := b.Tools[name]
		limit(key+".task", tb.Task)
		limit(key+".daily", tb.Daily)
		limit(key+".monthly", tb.Monthly)
	}
	k := s.Breakers
	between := func(key string, n, lo, hi int64) {
		if n < lo || n > hi {
			bad(key, "must be between %d and %d, 0 turns it off (got %d)", lo, hi, n)
		}
	}
	if k.ToolCalls != 0 {
		between("breakers.toolCalls", int64(k.ToolCalls), 1, MaxToolCalls)
	}
	if k.RepeatFailures != 0 {
		between("breakers.repeatFailures", int64(k.RepeatFailures), 2, MaxRepeatFailure)
	}
	if k.NoProgress != 0 {
		between("breakers.noProgress", int64(k.NoProgress), 1, MaxNoProgress)
	}
	if k.TokensPerMinute != 0 {
		between("breakers.tokensPerMinute", k.TokensPerMinute, 1, MaxTokensPerMin)
	}
	if v := k.VelocityWindowMs; v < minVelocityMs || v > maxVelocityMs {
		bad("breakers.velocityWindowMs", "must be between %d and %d (got %d)", minVelocityMs, maxVelocityMs, v)
	}
}

// fmtNumber prints a float as a settings author wrote it (5, 2.5).
func fmtNumber(f float64) string { return fmt.Sprintf("%g", f) }
