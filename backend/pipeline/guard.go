package pipeline

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/budget"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Budgets keeps the spend of live steps against the budgets and stops the
// steps a reached cap covers (budget.Engine).
type Budgets interface {
	Configure(ctx context.Context, b settings.Budgets) error
	Begin(ctx context.Context, s *budget.Step) (*budget.Reached, func(), error)
	Record(ctx context.Context, s *budget.Step, usage task.Usage, estimated bool) (budget.Result, error)
}

// budgetStop ends a run a reached budget cap stopped.
type budgetStop struct{ r budget.Reached }

func (b *budgetStop) Error() string { return b.r.Reason() }

// breakerStop ends a run a circuit breaker stopped.
type breakerStop struct{ c task.CircuitBroken }

func (b *breakerStop) Error() string { return b.c.Reason }

// guard is a live step's budget accounting and circuit breakers: it feeds
// the step's typed events to both and stops the step's whole process tree
// once, for the first of them that asks (a budget wins over a breaker
// tripping on the same event: the budget is evaluated first).
type guard struct {
	r    *run
	ctx  context.Context
	exec task.Execution
	name string
	step *budget.Step
	br   *budget.Breakers

	// outBytes counts the step's output; reported is set by its first
	// usage event with tokens in it.
	outBytes atomic.Int64
	reported atomic.Bool

	mu      sync.Mutex
	live    agent.Run
	stopped bool
	cause   error // *budgetStop or *breakerStop
}

// newGuard returns the guard of a step attempt and registers it with the
// budgets; a reached cap that covers the step is returned as a *budgetStop
// instead (the step must not start). end unregisters it.
func (r *run) newGuard(ctx context.Context, exec task.Execution, name string) (*guard, func(), error) {
	g := &guard{r: r, ctx: ctx, exec: exec, name: name,
		br: budget.NewBreakers(r.set.Breakers, name, r.p.o.Now())}
	g.step = &budget.Step{TaskID: r.t.ID, ExecID: exec.ID, Tool: exec.Tool, Stop: g.budgetReached}
	b := r.p.o.Budgets
	if b == nil {
		return g, func() {}, nil
	}
	if err := b.Configure(ctx, r.set.Budgets); err != nil {
		r.p.o.Logger.Warn("pipeline: budgets", "task", r.t.ID, "err", err)
	}
	reached, end, err := b.Begin(ctx, g.step)
	if err != nil {
		// The budget state cannot be read: the step runs, unaccounted
		// live (its end still records its usage), and the log says so.
		r.note(exec.ID, task.LevelWarn, fmt.Sprintf("Budgets are not checked for %s: %v", name, err))
		return g, func() {}, nil
	}
	if reached != nil {
		g.budgetReached(*reached)
		return g, func() {}, g.cause
	}
	return g, end, nil
}

// started hands the guard the running step; a stop asked before it
// started is carried out now.
func (g *guard) started(live agent.Run) {
	g.mu.Lock()
	g.live = live
	stop := g.cause != nil && !g.stopped
	g.stopped = g.stopped || stop
	g.mu.Unlock()
	if stop {
		live.Stop(proc.ReasonStopped)
	}
}

// stop records why the step stops and stops its process tree, once: it
// returns false (and does nothing) when the step was already stopping.
func (g *guard) stop(cause error) bool {
	g.mu.Lock()
	if g.cause != nil {
		g.mu.Unlock()
		return false
	}
	g.cause = cause
	live := g.live
	if live != nil {
		g.stopped = true
	}
	g.mu.Unlock()
	if live != nil {
		live.Stop(proc.ReasonStopped)
	}
	return true
}

// stopCause is why the guard stopped the step, nil when it did not.
func (g *guard) stopCause() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cause
}

// budgetReached is the budget.Step's Stop: a reached cap covers the step.
func (g *guard) budgetReached(rc budget.Reached) {
	if !g.stop(&budgetStop{rc}) {
		return
	}
	reason := rc.Reason()
	g.r.emit(g.exec.ID, task.BudgetStopped{BudgetSpend: rc.Spend(), Step: g.name, Reason: reason},
		task.LevelWarn, fmt.Sprintf("%s: stopping %s (work kept)", capitalize(reason), g.name))
}

// breakerTripped stops the step for a circuit breaker.
func (g *guard) breakerTripped(c *task.CircuitBroken) {
	if c == nil || !g.stop(&breakerStop{*c}) {
		return
	}
	g.r.emit(g.exec.ID, *c, task.LevelWarn, fmt.Sprintf("Circuit breaker: %s; stopping %s (work kept)",
		c.Reason[len(budget.BreakerPrefix):], g.name))
}

// feed passes one typed event of the step to the budgets, then (unless a
// budget stopped the step) to the breakers.
func (g *guard) feed(e agent.Event) {
	switch e.Kind {
	case agent.EventUsage:
		if e.Usage == nil {
			return
		}
		tu := taskUsage(*e.Usage)
		if store.BudgetTokens(tu) > 0 || tu.CacheRead > 0 {
			g.reported.Store(true)
		}
		estimated := false
		if tu.CostUSD == 0 {
			tu.CostUSD, estimated = g.r.p.o.Tools.EstimateCost(g.exec.Tool, g.exec.Model, tu)
		}
		g.record(tu, estimated)
		if g.stopCause() == nil {
			g.breakerTripped(g.br.Usage(store.BudgetTokens(tu), g.r.p.o.Now()))
		}
	case agent.EventToolCall:
		if g.stopCause() == nil {
			g.breakerTripped(g.br.ToolCall(e.Tool, e.CallID, e.Text))
		}
	case agent.EventToolResult:
		if g.stopCause() == nil {
			g.breakerTripped(g.br.ToolResult(e.CallID, e.Text, e.IsError))
		}
	}
}

// record records a usage event with the budgets and warns of each crossing.
func (g *guard) record(u task.Usage, estimated bool) {
	b := g.r.p.o.Budgets
	if b == nil {
		return
	}
	res, err := b.Record(context.WithoutCancel(g.ctx), g.step, u, estimated)
	if err != nil {
		g.r.p.o.Logger.Warn("pipeline: cannot record usage", "task", g.r.t.ID, "exec", g.exec.ID, "err", err)
		return
	}
	for _, c := range res.Crossings {
		g.r.emit(g.exec.ID, c.Event(), task.LevelWarn, budget.WarningText(c))
	}
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// output counts a chunk of the step's output.
func (g *guard) output(b []byte) { g.outBytes.Add(int64(len(b))) }

// silentUsage returns the step's final usage; for a step whose tool
// reported no usage at all it estimates one from the size of the prompt
// and of the output (about 4 bytes a token), records it with the budgets
// and says so in the log: budgets never count a silent tool as free. A
// step the provider refused for a usage limit is not estimated: the
// refused request cost nothing, and the tool reports the work before it
// (claude as it goes, codex from its session file).
func (g *guard) silentUsage(prompt string, res agent.Result) agent.Usage {
	u := res.Usage
	if g.reported.Load() || u.InputTokens+u.OutputTokens+u.CacheReadTokens+u.CacheWriteTokens > 0 || refused(res) {
		return u
	}
	est := agent.Usage{InputTokens: int64(len(prompt)+3) / 4, OutputTokens: (g.outBytes.Load() + 3) / 4}
	tu := taskUsage(est)
	tu.CostUSD, _ = g.r.p.o.Tools.EstimateCost(g.exec.Tool, g.exec.Model, tu)
	g.record(tu, true)
	g.r.note(g.exec.ID, task.LevelWarn, fmt.Sprintf("%s reported no usage for %s: counted an estimate of %s tokens from the size of its prompt and output",
		g.exec.Tool, g.name, budget.Thousands(est.InputTokens+est.OutputTokens)))
	return est
}

// refused reports whether a step ended on its tool's usage limit.
func refused(res agent.Result) bool { return res.Failed() && res.Limit != nil }
