package task

// The payloads of the budget and circuit-breaker events the pipeline emits
// while a step runs. All are stored: they explain why a task stopped.

// BudgetSpend names one budget and its spend when an event was recorded.
type BudgetSpend struct {
	// Scope is the budget's settings key below "budgets" ("daily",
	// "tools.codex.task").
	Scope string `json:"scope"`
	// Period is "task", "daily" or "monthly".
	Period string `json:"period"`
	// Tool is the tool whose spend the budget counts, "" for all tools.
	Tool string `json:"tool,omitempty"`
	// Mode is "warn" or "cap".
	Mode string `json:"mode"`
	// LimitUSD and LimitTokens are the limits (0: none of that kind).
	LimitUSD    float64 `json:"limit_usd,omitempty"`
	LimitTokens int64   `json:"limit_tokens,omitempty"`
	// SpentUSD and SpentTokens are the spend in the budget's period.
	SpentUSD    float64 `json:"spent_usd"`
	SpentTokens int64   `json:"spent_tokens"`
}

// BudgetWarning is the payload of EventBudgetWarning: spend crossed 80 % or
// 100 % of a budget. Each crossing is recorded once.
type BudgetWarning struct {
	BudgetSpend
	// Percent is the threshold crossed: 80 or 100.
	Percent int `json:"percent"`
}

// BudgetStopped is the payload of EventBudgetStopped: a budget in cap mode
// was reached and stopped the task's step (or kept the next one from
// starting).
type BudgetStopped struct {
	BudgetSpend
	// Step is the step that was stopped, "" when none was running.
	Step string `json:"step,omitempty"`
	// Reason is the task's stop reason ("budget: daily cap $5.00 reached").
	Reason string `json:"reason"`
}

// Breaker names a circuit breaker.
type Breaker string

// The circuit breakers of a step.
const (
	// BreakerToolCalls: the step made its Nth tool call.
	BreakerToolCalls Breaker = "tool_calls"
	// BreakerRepeatFailure: the same tool call failed with the same error N times in a row.
	BreakerRepeatFailure Breaker = "repeat_failure"
	// BreakerNoProgress: N tool results in a row changed no file and gave no new successful output.
	BreakerNoProgress Breaker = "no_progress"
	// BreakerTokenVelocity: the step used tokens faster than the limit per minute.
	BreakerTokenVelocity Breaker = "token_velocity"
)

// CircuitBroken is the payload of EventCircuitBroken: a breaker stopped a
// step, with the evidence.
type CircuitBroken struct {
	Breaker Breaker `json:"breaker"`
	Step    string  `json:"step"`
	// Limit is the breaker's setting; Count what the step reached.
	Limit int64 `json:"limit"`
	Count int64 `json:"count"`
	// Tool and Input are the last (for repeat_failure: the repeated) tool call.
	Tool  string `json:"tool,omitempty"`
	Input string `json:"input,omitempty"`
	// Error is the repeated error (repeat_failure).
	Error string `json:"error,omitempty"`
	// Tokens and WindowMs are the tokens counted over the measured window
	// (token_velocity).
	Tokens   int64 `json:"tokens,omitempty"`
	WindowMs int64 `json:"window_ms,omitempty"`
	// Reason is the task's stop reason ("circuit_broken:repeat_failure: …").
	Reason string `json:"reason"`
}

// Kind returns EventBudgetWarning.
func (BudgetWarning) Kind() EventKind { return EventBudgetWarning }

// Kind returns EventBudgetStopped.
func (BudgetStopped) Kind() EventKind { return EventBudgetStopped }

// Kind returns EventCircuitBroken.
func (CircuitBroken) Kind() EventKind { return EventCircuitBroken }

// MapText applies f to the tool input, the error and the reason, which
// come from the agent's output.
func (c CircuitBroken) MapText(f func(string) string) EventData {
	c.Input, c.Error, c.Reason = f(c.Input), f(c.Error), f(c.Reason)
	return c
}
