package pipeline

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/task"
)

// limited ends a run whose step's tool reached its usage limit (or was
// already paused by one): the task goes back to the front of the queue and
// goes on from that step once the tool's pause ends.
type limited struct {
	step    stepSpec
	tool    string
	model   string
	session string
	attempt int
	limit   agent.Limit
	// before is true when the step did not start: its tool was paused.
	before bool
	// until is the pause in force when before is true.
	until time.Time
	// fallback says why a task that switches tools waits instead ("" when
	// it does not switch).
	fallback string
}

func (l *limited) Error() string { return fmt.Sprintf("%s reached its usage limit", l.tool) }

// pausedUntil returns the end of tool's pause in force now, false when the
// tool is not paused (or the pauses cannot be read: the step then runs, and
// a limit it hits is recorded as usual).
func (r *run) pausedUntil(ctx context.Context, tool string) (time.Time, bool) {
	ps, err := r.st.ToolPauses(ctx, r.p.o.Now())
	if err != nil {
		r.p.o.Logger.Warn("pipeline: cannot read tool pauses", "task", r.t.ID, "err", err)
		return time.Time{}, false
	}
	i := slices.IndexFunc(ps, func(p task.ToolPause) bool { return p.Tool == tool })
	if i < 0 {
		return time.Time{}, false
	}
	return ps[i].Until, true
}

// release records a usage limit: the tool's pause (clamped reset time,
// durable), the limit_reached event and the task back to pending at the
// front of the queue with where it goes on, all before the run returns.
func (r *run) release(ctx context.Context, l *limited) (Result, error) {
	now := r.p.o.Now()
	until, warning := l.until, ""
	if !l.before {
		var err error
		if until, warning, err = r.pause(ctx, l); err != nil {
			return Result{Iteration: r.iter}, err
		}
	}
	if l.fallback != "" {
		r.logf(task.LevelWarn, "The task would switch tools after the usage limit of %s, but %s: it waits for the reset instead", l.tool, l.fallback)
	}
	rp := &task.ResumePoint{TaskID: r.t.ID, Iteration: r.iter, Step: l.step.name(), Role: l.step.execRole(), Round: l.step.round,
		Attempt: l.attempt, Tool: l.tool, Model: l.model, SessionID: l.session, Reason: task.ResumeLimit, AfterSection: r.res.afterSection}
	ev := task.LimitReached{Step: l.step.name(), Role: l.step.execRole(), Tool: l.tool, ResetsAt: until.UTC(), Limit: l.limit.Kind,
		Message: l.limit.Message, Warning: warning, Action: task.LimitActionWait, Before: l.before}
	ev = task.MapText(ev, secrets.Scrub).(task.LimitReached)
	desc := task.ToolPause{Tool: l.tool, Until: until}.Describe(now, time.Local)
	text := fmt.Sprintf("%s: %s reached its usage limit; the task waits at the front of the queue and goes on from %s",
		desc, l.tool, l.step.name())
	if l.before {
		text = fmt.Sprintf("%s: the task waits at the front of the queue and goes on from %s", desc, l.step.name())
	}
	if _, err := r.st.Release(ctx, r.t.ID, rp, "usage limit", ev); err != nil {
		return Result{Iteration: r.iter}, fmt.Errorf("release %s after a usage limit: %w", r.t.ID, err)
	}
	r.announce(ev)
	r.logf(task.LevelWarn, "%s", text)
	return Result{Status: task.StatusPending, Message: desc, Iteration: r.iter}, nil
}

// sectionOf is the report section a step's result is stored as.
func sectionOf(s stepSpec) (task.SectionKind, bool) {
	switch s.role {
	case task.RolePlanner:
		return task.SectionPlannerReport, true
	case task.RoleRefinement:
		return task.SectionFinalPlan, true
	case task.RoleDeveloper:
		return task.SectionDeveloperReport, true
	case task.RoleObserver:
		return task.SectionObserverReport, true
	case task.RoleReviewer:
		return task.SectionReviewerReport, true
	}
	return "", false
}

func replayKey(kind task.SectionKind, round int) string { return fmt.Sprintf("%s/%d", kind, round) }

// loadReplay prepares a run that goes on after a usage limit: the reports
// its steps stored before the limit (the sections after the resume point's
// first section, of the same iteration) are taken instead of running those
// steps again, so no work is done twice and none is lost.
func (r *run) loadReplay(secs []task.Section) {
	r.res.replay.load(secs, r.res.afterSection, r.iter)
}

// replayed returns the stored report of a step done before the usage limit
// (and forgets it, so the section is not stored twice), false when the step
// must run.
func (r *run) replayed(s stepSpec) (agent.Result, bool) {
	kind, ok := sectionOf(s)
	if !ok {
		return agent.Result{}, false
	}
	sec, ok := r.res.replay.take(kind, s.round)
	if !ok {
		return agent.Result{}, false
	}
	r.logf(task.LevelInfo, "Step %s was done before the usage limit: its stored report is used", s.name())
	return agent.Result{Report: sec.Body}, true
}
