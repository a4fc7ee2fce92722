package budget

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Store is the part of the store the Engine uses (*store.Store).
type Store interface {
	RecordUsage(ctx context.Context, execID int64, u task.Usage, estimated bool, at time.Time) (store.Spend, error)
	SpendByTool(ctx context.Context, from, to time.Time) ([]store.SpendTotal, error)
	TaskSpendByTool(ctx context.Context, taskID string) ([]store.SpendTotal, error)
	LastSpendAt(ctx context.Context) (time.Time, error)
}

// Options configure an Engine.
type Options struct {
	Store Store
	// Now is the clock; default time.Now. A clock that jumps backwards is
	// held at the latest time it gave (and the jump logged once).
	Now func() time.Time
	// Location is where days and months start; default time.Local.
	Location *time.Location
	// Logger receives the corrections and the budgets that apply at once.
	Logger *slog.Logger
}

// Reached is a budget in cap mode whose spend reached its limit.
type Reached struct {
	Scope   settings.BudgetScope
	Spent   Amount
	Percent float64
	// Resets is when its period rolls over; zero for a task budget.
	Resets time.Time
}

// Reason is the task's stop reason: "budget: daily cap $5.00 reached".
func (r Reached) Reason() string { return Reason(r.Scope, r.Spent) }

// Spend is the budget and its spend as an event records them.
func (r Reached) Spend() task.BudgetSpend { return eventSpend(r.Scope, r.Spent) }

// Crossing is a warning threshold (80 or 100 %) that a recorded usage
// crossed; a cap's 100 % is a Reached instead.
type Crossing struct {
	Scope   settings.BudgetScope
	Spent   Amount
	Percent int
}

// Event is the crossing's typed event.
func (c Crossing) Event() task.BudgetWarning {
	return task.BudgetWarning{BudgetSpend: eventSpend(c.Scope, c.Spent), Percent: c.Percent}
}

func eventSpend(sc settings.BudgetScope, a Amount) task.BudgetSpend {
	out := task.BudgetSpend{Scope: sc.Key, Period: sc.Period, Tool: sc.Tool, Mode: settings.ModeWarn, SpentUSD: a.USD, SpentTokens: a.Tokens}
	if sc.Limit.Capped() {
		out.Mode = settings.ModeCap
	}
	if sc.Limit.USD != nil {
		out.LimitUSD = *sc.Limit.USD
	}
	if sc.Limit.Tokens != nil {
		out.LimitTokens = *sc.Limit.Tokens
	}
	return out
}

// Step is a live step the engine counts spend for and may stop.
type Step struct {
	TaskID string
	ExecID int64
	Tool   string
	// Stop is called (at most once per reached cap, never under the
	// engine's lock) when a cap covering the step is reached.
	Stop func(Reached)
}

// Result is what recording one usage event found.
type Result struct {
	// Spend is what the event added (Zero when nothing).
	Spend store.Spend
	// Crossings are the warnings to give, each once per crossing.
	Crossings []Crossing
	// Reached is the first cap covering the step that is reached; the
	// engine has then called Stop on every live step that cap covers.
	Reached *Reached
}

// Engine keeps the spend of the current day, month and running tasks in
// memory (loaded from the store, kept in step by Record) and evaluates the
// configured budgets. It is safe for concurrent use.
type Engine struct {
	o Options

	mu     sync.Mutex
	clock  clock
	ready  bool
	scopes []settings.BudgetScope
	day    periodTotals
	month  periodTotals
	tasks  map[string]*spent
	levels map[string]int // scope@period → 0, 80 or 100 last seen
	steps  map[*Step]bool
}

// periodTotals is the spend of one day or month.
type periodTotals struct {
	from, to time.Time
	spent    spent
}

// spent is spend of all tools and per tool.
type spent struct {
	all    Amount
	byTool map[string]Amount
}

func (s *spent) add(tool string, a Amount) {
	s.all = s.all.Add(a)
	if s.byTool == nil {
		s.byTool = map[string]Amount{}
	}
	s.byTool[tool] = s.byTool[tool].Add(a)
}

// of is the spend of tool ("" for all tools).
func (s *spent) of(tool string) Amount {
	if s == nil {
		return Amount{}
	}
	if tool == "" {
		return s.all
	}
	return s.byTool[tool]
}

func spentOf(totals []store.SpendTotal) *spent {
	s := &spent{}
	for _, t := range totals {
		s.add(t.Tool, ofTotal(t))
	}
	return s
}

// New returns an Engine with no budgets (Configure sets them).
func New(o Options) *Engine {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Location == nil {
		o.Location = time.Local
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return &Engine{o: o, clock: clock{now: o.Now}, tasks: map[string]*spent{}, levels: map[string]int{}, steps: map[*Step]bool{}}
}

// Now returns the budget clock's time (never before a time it gave).
func (e *Engine) Now() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.readClock()
}

// readClock reads the clock and logs a backwards jump once; e.mu is held.
func (e *Engine) readClock() time.Time {
	t, jump := e.clock.read()
	if jump > 0 {
		e.o.Logger.Warn(fmt.Sprintf("budgets: the clock went back by %s; spend is counted at %s until the clock catches up, so no day or month is counted twice",
			jump.Round(time.Second), t.In(e.o.Location).Format(time.RFC3339)))
	}
	return t
}

// Configure sets the budgets (from settings, read at every look at the
// queue). A change applies at once: a cap that is now below what is
// already spent stops the live steps it covers, and the log says so.
func (e *Engine) Configure(ctx context.Context, b settings.Budgets) error {
	scopes := b.Scopes()
	e.mu.Lock()
	if e.ready && reflect.DeepEqual(scopes, e.scopes) {
		e.mu.Unlock()
		return nil
	}
	e.scopes = scopes
	now := e.readClock()
	if err := e.ensure(ctx, now); err != nil {
		e.mu.Unlock()
		return err
	}
	var stops []stop
	for _, sc := range scopes {
		for _, id := range e.subjects(sc) {
			a := e.spendOf(sc, id)
			pct := Percent(sc.Limit, a)
			key := e.levelKey(sc, id)
			old, lv := e.levels[key], level(pct)
			e.levels[key] = lv
			if lv < 100 || old == 100 {
				continue
			}
			r := e.reached(sc, a, pct, now)
			what := "warns"
			if sc.Limit.Capped() {
				what = "applies at once: live steps it covers stop and the queue starts none of its tasks until it is raised"
				if !r.Resets.IsZero() {
					what += " or it resets at " + r.Resets.Format("2006-01-02 15:04")
				}
				stops = append(stops, e.covered(r, id)...)
			}
			e.o.Logger.Warn(fmt.Sprintf("budgets: the %s budget %s is already reached (%s spent); it %s",
				Label(sc), LimitText(sc.Limit, a), spentText(a), what))
		}
	}
	e.mu.Unlock()
	run(stops)
	return nil
}

// subjects lists the ids a scope's spend is kept for: "" for a day or
// month, each known task for a task budget.
func (e *Engine) subjects(sc settings.BudgetScope) []string {
	if sc.Period != settings.PeriodTask {
		return []string{""}
	}
	ids := make([]string, 0, len(e.tasks))
	for id := range e.tasks {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Begin registers a live step, after loading its task's spend afresh. It
// returns the reached cap that covers the step instead (and registers
// nothing) when one does; end unregisters the step.
func (e *Engine) Begin(ctx context.Context, s *Step) (r *Reached, end func(), err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.readClock()
	if err := e.ensure(ctx, now); err != nil {
		return nil, nil, err
	}
	if err := e.loadTask(ctx, s.TaskID); err != nil {
		return nil, nil, err
	}
	if r := e.hold(s.TaskID, []string{s.Tool}, now); r != nil {
		return r, nil, nil
	}
	e.steps[s] = true
	return nil, func() {
		e.mu.Lock()
		delete(e.steps, s)
		e.mu.Unlock()
	}, nil
}

// Hold returns the reached cap that keeps t from starting (its spend, or
// the day's or month's, of all tools or of one of tools, the tools its
// roles use), nil when none does.
func (e *Engine) Hold(ctx context.Context, t task.Task, tools []string) (*Reached, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.readClock()
	if err := e.ensure(ctx, now); err != nil {
		return nil, err
	}
	if _, ok := e.tasks[t.ID]; !ok && e.hasTaskScope() {
		if err := e.loadTask(ctx, t.ID); err != nil {
			return nil, err
		}
	}
	return e.hold(t.ID, tools, now), nil
}

func (e *Engine) hasTaskScope() bool {
	return slices.ContainsFunc(e.scopes, func(sc settings.BudgetScope) bool { return sc.Period == settings.PeriodTask })
}

// hold is Hold with e.mu held and the spend loaded.
func (e *Engine) hold(taskID string, tools []string, now time.Time) *Reached {
	for _, sc := range e.scopes {
		if !sc.Limit.Capped() || (sc.Tool != "" && !slices.Contains(tools, sc.Tool)) {
			continue
		}
		id := ""
		if sc.Period == settings.PeriodTask {
			id = taskID
		}
		a := e.spendOf(sc, id)
		if pct := Percent(sc.Limit, a); pct >= 100 {
			r := e.reached(sc, a, pct, now)
			return &r
		}
	}
	return nil
}

// Record records a usage event of a live step: usage is the step's usage
// so far, its cost from the tool (estimated false) or its price table. The
// spend goes to the store with the step's usage in one transaction; then
// the budgets covering the step are evaluated: crossings of 80 and 100 %
// are returned once each, and a reached cap stops every live step it
// covers (this one included). The error is the store's; nothing is counted
// then.
func (e *Engine) Record(ctx context.Context, s *Step, usage task.Usage, estimated bool) (Result, error) {
	e.mu.Lock()
	now := e.readClock()
	e.mu.Unlock()
	sp, err := e.o.Store.RecordUsage(ctx, s.ExecID, usage, estimated, now)
	if err != nil {
		return Result{}, err
	}
	res := Result{Spend: sp}
	if sp.Zero() {
		return res, nil
	}
	e.mu.Lock()
	if err := e.ensure(ctx, now); err != nil {
		e.mu.Unlock()
		return res, err
	}
	a := ofSpend(sp)
	for _, p := range []*periodTotals{&e.day, &e.month} {
		if !now.Before(p.from) && now.Before(p.to) {
			p.spent.add(sp.Tool, a)
		}
	}
	if ts, ok := e.tasks[s.TaskID]; ok {
		ts.add(sp.Tool, a)
	}
	var stops []stop
	for _, sc := range e.scopes {
		if sc.Tool != "" && sc.Tool != s.Tool {
			continue
		}
		id := ""
		if sc.Period == settings.PeriodTask {
			id = s.TaskID
		}
		spent := e.spendOf(sc, id)
		pct := Percent(sc.Limit, spent)
		key := e.levelKey(sc, id)
		old, lv := e.levels[key], level(pct)
		e.levels[key] = lv
		if lv > old && !(lv == 100 && sc.Limit.Capped()) {
			res.Crossings = append(res.Crossings, Crossing{Scope: sc, Spent: spent, Percent: lv})
		}
		if sc.Limit.Capped() && pct >= 100 {
			r := e.reached(sc, spent, pct, now)
			if res.Reached == nil {
				res.Reached = &r
			}
			stops = append(stops, e.covered(r, id)...)
		}
	}
	e.mu.Unlock()
	run(stops)
	return res, nil
}

// stop is one live step to stop for a reached cap.
type stop struct {
	step *Step
	r    Reached
}

// covered lists the live steps a reached cap covers (taskID: the task of
// a task budget); e.mu is held.
func (e *Engine) covered(r Reached, taskID string) []stop {
	var out []stop
	for st := range e.steps {
		if (r.Scope.Tool == "" || r.Scope.Tool == st.Tool) && (r.Scope.Period != settings.PeriodTask || st.TaskID == taskID) {
			out = append(out, stop{st, r})
		}
	}
	return out
}

// run stops each step once, for the first cap that covers it.
func run(stops []stop) {
	seen := map[*Step]bool{}
	for _, s := range stops {
		if !seen[s.step] && s.step.Stop != nil {
			seen[s.step] = true
			s.step.Stop(s.r)
		}
	}
}

func (e *Engine) reached(sc settings.BudgetScope, a Amount, pct float64, now time.Time) Reached {
	r := Reached{Scope: sc, Spent: a, Percent: pct}
	if _, to, ok := Period(sc.Period, now, e.o.Location); ok {
		r.Resets = to
	}
	return r
}

// spendOf is a scope's spend (id: the task of a task budget); e.mu is held.
func (e *Engine) spendOf(sc settings.BudgetScope, id string) Amount {
	switch sc.Period {
	case settings.PeriodDaily:
		return e.day.spent.of(sc.Tool)
	case settings.PeriodMonthly:
		return e.month.spent.of(sc.Tool)
	}
	return e.tasks[id].of(sc.Tool)
}

func (e *Engine) levelKey(sc settings.BudgetScope, id string) string {
	switch sc.Period {
	case settings.PeriodDaily:
		return sc.Key + "@" + e.day.from.Format(time.DateOnly)
	case settings.PeriodMonthly:
		return sc.Key + "@" + e.month.from.Format("2006-01")
	}
	return sc.Key + "@" + id
}

// ensure loads the spend on first use and again when the day or the month
// rolled over; e.mu is held. A period loaded afresh starts its warning
// levels from its spend (crossings before it are not warned again).
func (e *Engine) ensure(ctx context.Context, now time.Time) error {
	if !e.ready {
		last, err := e.o.Store.LastSpendAt(ctx)
		if err != nil {
			return fmt.Errorf("budgets: %w", err)
		}
		e.clock.raise(last)
		e.ready = true
	}
	for _, p := range []struct {
		pt     *periodTotals
		period string
	}{{&e.day, settings.PeriodDaily}, {&e.month, settings.PeriodMonthly}} {
		from, to, _ := Period(p.period, now, e.o.Location)
		if from.Equal(p.pt.from) {
			continue
		}
		totals, err := e.o.Store.SpendByTool(ctx, from, to)
		if err != nil {
			return fmt.Errorf("budgets: %w", err)
		}
		*p.pt = periodTotals{from: from, to: to, spent: *spentOf(totals)}
		for _, sc := range e.scopes {
			if sc.Period == p.period {
				e.levels[e.levelKey(sc, "")] = level(Percent(sc.Limit, e.spendOf(sc, "")))
			}
		}
	}
	return nil
}

// loadTask (re)loads a task's spend from the store; e.mu is held. Its
// task budgets' warning levels start from it when not known yet.
func (e *Engine) loadTask(ctx context.Context, id string) error {
	totals, err := e.o.Store.TaskSpendByTool(ctx, id)
	if err != nil {
		return fmt.Errorf("budgets: %w", err)
	}
	e.tasks[id] = spentOf(totals)
	for _, sc := range e.scopes {
		if sc.Period != settings.PeriodTask {
			continue
		}
		if _, ok := e.levels[e.levelKey(sc, id)]; !ok {
			e.levels[e.levelKey(sc, id)] = level(Percent(sc.Limit, e.spendOf(sc, id)))
		}
	}
	return nil
}

// spentText is "$4.12 and 1,234 tokens".
func spentText(a Amount) string { return USD(a.USD) + " and " + Tokens(a.Tokens) }
