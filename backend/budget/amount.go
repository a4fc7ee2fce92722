// Package budget keeps the spend of agent steps against the budgets of
// settings.budgets: per task, per day and per month (all tasks), each
// optionally per tool, in US dollars and/or tokens, in warn or cap mode.
// The Engine records every usage event of a running step (through the
// store, atomically with the step's usage), warns once per crossing of 80 %
// and 100 %, stops the live steps a reached cap covers and tells the queue
// which tasks a cap holds back. Snapshot reports spend against each budget
// from the store alone, for the CLI and the Settings screen.
package budget

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Amount is spend: US dollars and budget tokens (store.BudgetTokens).
type Amount struct {
	USD    float64 `json:"usd"`
	Tokens int64   `json:"tokens"`
}

// Add returns a + o.
func (a Amount) Add(o Amount) Amount { return Amount{USD: a.USD + o.USD, Tokens: a.Tokens + o.Tokens} }

// ofSpend is the amount of a spend row.
func ofSpend(sp store.Spend) Amount { return Amount{USD: sp.CostUSD, Tokens: sp.Tokens} }

// ofTotal is the amount of a spend total.
func ofTotal(t store.SpendTotal) Amount { return Amount{USD: t.CostUSD, Tokens: t.Tokens} }

// Percent is how much of l a has used, in percent: the higher of the USD
// and the token share (0 for a limit of neither kind).
func Percent(l settings.Limit, a Amount) float64 {
	p := 0.0
	if l.USD != nil && *l.USD > 0 {
		p = math.Max(p, a.USD / *l.USD * 100)
	}
	if l.Tokens != nil && *l.Tokens > 0 {
		p = math.Max(p, float64(a.Tokens)/float64(*l.Tokens)*100)
	}
	return p
}

// level is the warning band of a percentage: 0, 80 or 100.
func level(pct float64) int {
	switch {
	case pct >= 100:
		return 100
	case pct >= 80:
		return 80
	}
	return 0
}

// USD formats dollars as "$5.00" (four decimals below a cent: "$0.0042").
func USD(v float64) string {
	if v != 0 && math.Abs(v) < 0.01 {
		return "$" + strconv.FormatFloat(v, 'f', 4, 64)
	}
	return "$" + strconv.FormatFloat(v, 'f', 2, 64)
}

// Tokens formats a token count with thousands separators: "2,000,000 tokens".
func Tokens(n int64) string { return Thousands(n) + " tokens" }

// Thousands formats n with comma thousands separators.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Label names a budget in sentences: "daily", "task", "codex monthly".
func Label(sc settings.BudgetScope) string {
	if sc.Tool != "" {
		return sc.Tool + " " + sc.Period
	}
	return sc.Period
}

// LimitText is the limit of l that a is nearest to (or past): "$5.00" or
// "2,000,000 tokens"; both limits when a has used neither ("$5.00 or
// 2,000,000 tokens").
func LimitText(l settings.Limit, a Amount) string {
	var usd, tok float64 = -1, -1
	if l.USD != nil {
		usd = a.USD / *l.USD
	}
	if l.Tokens != nil {
		tok = float64(a.Tokens) / float64(*l.Tokens)
	}
	switch {
	case l.USD != nil && l.Tokens != nil && usd == tok:
		return USD(*l.USD) + " or " + Tokens(*l.Tokens)
	case l.USD != nil && usd >= tok:
		return USD(*l.USD)
	case l.Tokens != nil:
		return Tokens(*l.Tokens)
	}
	return "no limit"
}

// Reason is a task's stop reason for a reached cap: "budget: daily cap
// $5.00 reached".
func Reason(sc settings.BudgetScope, spent Amount) string {
	return fmt.Sprintf("budget: %s cap %s reached", Label(sc), LimitText(sc.Limit, spent))
}

// StatusReason is the reason recorded on the status change of a task a cap
// stopped ("budget:daily"): store.StoppedBy finds those tasks by it.
func StatusReason(sc settings.BudgetScope) string { return store.ReasonBudgetPrefix + sc.Key }

// WarningText is the log line of a crossing: "Budget warning: the daily
// budget is at 80 % ($4.00 of $5.00)".
func WarningText(c Crossing) string {
	lim := LimitText(c.Scope.Limit, c.Spent)
	spent := USD(c.Spent.USD)
	if c.Scope.Limit.USD == nil || (c.Scope.Limit.Tokens != nil && !strings.HasPrefix(lim, "$")) {
		spent = Tokens(c.Spent.Tokens)
	}
	if c.Percent >= 100 {
		return fmt.Sprintf("Budget warning: the %s budget of %s is reached (%s spent); it only warns, nothing is stopped",
			Label(c.Scope), lim, spent)
	}
	return fmt.Sprintf("Budget warning: the %s budget is at %d %% (%s of %s)", Label(c.Scope), c.Percent, spent, lim)
}

// SpendText is an event's spend against its budget's limits: "$0.80 of
// $1.00", "800 of 1,000 tokens", both joined by a comma.
func SpendText(b task.BudgetSpend) string {
	var parts []string
	if b.LimitUSD > 0 {
		parts = append(parts, USD(b.SpentUSD)+" of "+USD(b.LimitUSD))
	}
	if b.LimitTokens > 0 {
		parts = append(parts, Thousands(b.SpentTokens)+" of "+Tokens(b.LimitTokens))
	}
	return strings.Join(parts, ", ")
}
