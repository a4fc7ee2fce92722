package budget

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Reader is the part of the store a Snapshot reads (*store.Store).
type Reader interface {
	SpendByTool(ctx context.Context, from, to time.Time) ([]store.SpendTotal, error)
	TasksSpend(ctx context.Context, statuses ...task.Status) ([]store.TaskSpend, error)
	StoppedBy(ctx context.Context, prefix string) ([]store.StoppedTask, error)
	ListTasks(ctx context.Context, f store.Filter) ([]task.Task, error)
}

// Line is one budget and its spend now.
type Line struct {
	// Scope is its settings key below "budgets": "daily", "tools.codex.task".
	Scope  string `json:"scope"`
	Period string `json:"period"`
	Tool   string `json:"tool,omitempty"`
	Mode   string `json:"mode"`
	// LimitUSD and LimitTokens are the limits; absent: none of that kind.
	LimitUSD    *float64 `json:"limit_usd,omitempty"`
	LimitTokens *int64   `json:"limit_tokens,omitempty"`
	// Spent is the spend in the period; for a task budget, that of the
	// task (TaskID) that used the most of it among the tasks that may
	// still run (pending, ongoing, waiting for answers, failed, stopped).
	SpentUSD    float64 `json:"spent_usd"`
	SpentTokens int64   `json:"spent_tokens"`
	TaskID      string  `json:"task_id,omitempty"`
	// Percent is how much of the limit is used (the higher of the two).
	Percent float64 `json:"percent"`
	// Reached is true at 100 % or more; Blocking when the budget is in
	// cap mode then (the queue starts none of the tasks it covers).
	Reached  bool `json:"reached"`
	Blocking bool `json:"blocking"`
	// Over counts the tasks at or over a task budget.
	Over int `json:"over,omitempty"`
	// Resets is when the period rolls over; absent for a task budget.
	Resets *time.Time `json:"resets,omitempty"`
}

// Label names the budget: "daily", "codex task".
func (l Line) Label() string { return Label(settings.BudgetScope{Period: l.Period, Tool: l.Tool}) }

// Stopped is a task a budget stopped.
type Stopped struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Reason is its stop reason ("budget: daily cap $5.00 reached").
	Reason string `json:"reason"`
	// HeldBy is the reason a cap still holds it ("" when it can run now:
	// its period rolled over or the limit was raised).
	HeldBy string `json:"held_by,omitempty"`
}

// Report is spend against every budget, and the tasks budgets stopped.
type Report struct {
	// Now is the time of the report; Location where days start.
	Now      time.Time `json:"now"`
	Location string    `json:"location"`
	Lines    []Line    `json:"lines"`
	// Breakers are the circuit breakers in effect.
	Breakers settings.Breakers `json:"breakers"`
	// Stopped lists the tasks a budget stopped, oldest stop first.
	Stopped []Stopped `json:"stopped"`
	// Held counts the pending tasks a cap holds back from the queue.
	Held int `json:"held"`
}

// Retryable lists the stopped tasks no cap holds any more.
func (r Report) Retryable() []Stopped {
	var out []Stopped
	for _, s := range r.Stopped {
		if s.HeldBy == "" {
			out = append(out, s)
		}
	}
	return out
}

// runnable are the statuses of tasks that may still spend.
var runnable = []task.Status{task.StatusPending, task.StatusOngoing, task.StatusActions, task.StatusFailed, task.StatusStopped}

// Snapshot reports spend against each budget of s at now (days and months
// in loc), from the store alone: any process can call it.
func Snapshot(ctx context.Context, st Reader, s settings.Settings, now time.Time, loc *time.Location) (Report, error) {
	rep := Report{Now: now, Location: loc.String(), Lines: []Line{}, Breakers: s.Breakers, Stopped: []Stopped{}}
	ev, err := newEvaluator(ctx, st, s, now, loc)
	if err != nil {
		return rep, err
	}
	for _, sc := range ev.scopes {
		l := Line{Scope: sc.Key, Period: sc.Period, Tool: sc.Tool, Mode: settings.ModeWarn, LimitUSD: sc.Limit.USD, LimitTokens: sc.Limit.Tokens}
		if sc.Limit.Capped() {
			l.Mode = settings.ModeCap
		}
		var a Amount
		if sc.Period == settings.PeriodTask {
			for _, id := range ev.taskIDs {
				ta := ev.tasks[id].of(sc.Tool)
				if Percent(sc.Limit, ta) >= 100 {
					l.Over++
				}
				if l.TaskID == "" || Percent(sc.Limit, ta) > Percent(sc.Limit, a) {
					a, l.TaskID = ta, id
				}
			}
		} else {
			a = ev.periodSpend(sc)
			_, to, _ := Period(sc.Period, now, loc)
			l.Resets = &to
		}
		l.SpentUSD, l.SpentTokens, l.Percent = a.USD, a.Tokens, Percent(sc.Limit, a)
		l.Reached = l.Percent >= 100
		l.Blocking = l.Reached && sc.Limit.Capped()
		rep.Lines = append(rep.Lines, l)
	}
	stopped, err := st.StoppedBy(ctx, store.ReasonBudgetPrefix)
	if err != nil {
		return rep, err
	}
	for _, t := range stopped {
		s := Stopped{ID: t.Task.ID, Title: t.Task.DisplayTitle(), Reason: t.Task.Error}
		if r := ev.hold(t.Task); r != nil {
			s.HeldBy = r.Reason()
		}
		rep.Stopped = append(rep.Stopped, s)
	}
	pending, err := st.ListTasks(ctx, store.Filter{Statuses: []task.Status{task.StatusPending}, Limit: 10000})
	if err != nil {
		return rep, err
	}
	for _, t := range pending {
		if !t.Skip && ev.hold(t) != nil {
			rep.Held++
		}
	}
	return rep, nil
}

// evaluator evaluates budgets from spend read once from the store.
type evaluator struct {
	set     settings.Settings
	scopes  []settings.BudgetScope
	now     time.Time
	loc     *time.Location
	day     *spent
	month   *spent
	tasks   map[string]*spent
	taskIDs []string
}

func newEvaluator(ctx context.Context, st Reader, s settings.Settings, now time.Time, loc *time.Location) (*evaluator, error) {
	ev := &evaluator{set: s, scopes: s.Budgets.Scopes(), now: now, loc: loc, tasks: map[string]*spent{}}
	for _, p := range []struct {
		period string
		dst    **spent
	}{{settings.PeriodDaily, &ev.day}, {settings.PeriodMonthly, &ev.month}} {
		from, to, _ := Period(p.period, now, loc)
		totals, err := st.SpendByTool(ctx, from, to)
		if err != nil {
			return nil, fmt.Errorf("budgets: %w", err)
		}
		*p.dst = spentOf(totals)
	}
	ts, err := st.TasksSpend(ctx, runnable...)
	if err != nil {
		return nil, fmt.Errorf("budgets: %w", err)
	}
	for _, t := range ts {
		if ev.tasks[t.TaskID] == nil {
			ev.tasks[t.TaskID] = &spent{}
			ev.taskIDs = append(ev.taskIDs, t.TaskID)
		}
		ev.tasks[t.TaskID].add(t.Tool, ofTotal(t.SpendTotal))
	}
	return ev, nil
}

func (ev *evaluator) periodSpend(sc settings.BudgetScope) Amount {
	if sc.Period == settings.PeriodDaily {
		return ev.day.of(sc.Tool)
	}
	return ev.month.of(sc.Tool)
}

// hold returns the reached cap that holds t back, nil when none does.
func (ev *evaluator) hold(t task.Task) *Reached {
	tools := TaskTools(t, ev.set)
	for _, sc := range ev.scopes {
		if !sc.Limit.Capped() || (sc.Tool != "" && !slices.Contains(tools, sc.Tool)) {
			continue
		}
		var a Amount
		if sc.Period == settings.PeriodTask {
			a = ev.tasks[t.ID].of(sc.Tool)
		} else {
			a = ev.periodSpend(sc)
		}
		if pct := Percent(sc.Limit, a); pct >= 100 {
			r := Reached{Scope: sc, Spent: a, Percent: pct}
			if _, to, ok := Period(sc.Period, ev.now, ev.loc); ok {
				r.Resets = to
			}
			return &r
		}
	}
	return nil
}

// TaskTools lists the tools t's roles use: its overrides, else the
// settings' roles (the observer only when one is set), sorted, once each.
func TaskTools(t task.Task, s settings.Settings) []string {
	var out []string
	for _, role := range []task.Role{task.RolePlanner, task.RoleRefinement, task.RoleDeveloper, task.RoleObserver, task.RoleReviewer} {
		tool := ""
		if c, ok := t.Tools[role]; ok && c.Tool != "" {
			tool = c.Tool
		} else if ref, ok := s.Role(role); ok {
			tool = ref.Tool
		}
		if tool != "" && !slices.Contains(out, tool) {
			out = append(out, tool)
		}
	}
	slices.Sort(out)
	return out
}

// Retrier is the part of the store RetryReleased uses (*store.Store).
type Retrier interface {
	Reader
	Retry(ctx context.Context, id string) (task.Task, error)
}

// RetryReleased re-queues every task a budget stopped that no cap holds
// any more (its period rolled over or its limit was raised): the one action
// after a cap. It returns the tasks it re-queued and those still held.
func RetryReleased(ctx context.Context, st Retrier, s settings.Settings, now time.Time, loc *time.Location) (retried, held []Stopped, err error) {
	rep, err := Snapshot(ctx, st, s, now, loc)
	if err != nil {
		return nil, nil, err
	}
	for _, sp := range rep.Stopped {
		if sp.HeldBy != "" {
			held = append(held, sp)
			continue
		}
		if _, err := st.Retry(ctx, sp.ID); err != nil {
			return retried, held, fmt.Errorf("retry %s: %w", sp.ID, err)
		}
		retried = append(retried, sp)
	}
	return retried, held, nil
}
