package pipeline

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/task"
)

// switches reports whether the task leaves a limited tool for another
// one (its own on-limit, else settings limits.onLimit).
func (r *run) switches() bool {
	return r.set.EffectiveOnLimit(r.t.OnLimit) == task.OnLimitSwitch
}

// SwitchCandidate is a tool a step may go on with after its tool's usage
// limit (Options.Switch).
type SwitchCandidate struct {
	// Tool is the tool's settings name.
	Tool string
	// Installed is whether its CLI is found.
	Installed bool
}

// switchTarget returns the tool a step of from goes on with after from's
// usage limit: the first of Options.Switch's candidates that is installed,
// registered and not paused. Without one it returns nil and why the task
// waits instead: from has no other tool, or why each candidate is out.
func (r *run) switchTarget(ctx context.Context, from string) (agent.Tool, string) {
	var cands []SwitchCandidate
	if r.p.o.Switch != nil {
		cands = r.p.o.Switch(from)
	}
	if len(cands) == 0 {
		return nil, fmt.Sprintf("%s has no other tool to switch to", from)
	}
	why := make([]string, 0, len(cands))
	for _, c := range cands {
		if !c.Installed {
			why = append(why, fmt.Sprintf("%s is not installed", c.Tool))
			continue
		}
		tool, err := r.p.o.Tools.Get(c.Tool)
		if err != nil {
			why = append(why, fmt.Sprintf("%s is not available: %v", c.Tool, err))
			continue
		}
		if until, paused := r.pausedUntil(ctx, c.Tool); paused {
			why = append(why, fmt.Sprintf("%s is paused too (%s)", c.Tool,
				task.ToolPause{Tool: c.Tool, Until: until}.Describe(r.p.o.Now(), time.Local)))
			continue
		}
		return tool, ""
	}
	return nil, strings.Join(why, "; ")
}

// pause records a usage limit's pause of its tool (clamped reset time,
// durable) and returns its end and the correction warning.
func (r *run) pause(ctx context.Context, l *limited) (time.Time, string, error) {
	now := r.p.o.Now()
	until, warning := task.ClampReset(l.limit.ResetsAt, now)
	p, err := r.st.PauseTool(ctx, task.ToolPause{Tool: l.tool, Until: until, PausedAt: now, Reason: "usage limit",
		Message: secrets.Scrub(l.limit.Message), TaskID: r.t.ID, Warning: warning})
	if err != nil {
		return time.Time{}, "", fmt.Errorf("pause %s: %w", l.tool, err)
	}
	if warning != "" {
		r.logf(task.LevelWarn, "Usage limit of %s: %s", l.tool, warning)
	}
	return p.Until, warning, nil
}

// switchOver moves step s from the limited tool to another after its
// usage limit: the limited tool is paused (other tasks wait for it as
// usual), the handoff of the cut step is written, and limit_reached says
// where the step goes on. It returns the handoff text for the next prompt.
func (r *run) switchOver(ctx context.Context, s stepSpec, l *limited, to agent.Tool, res agent.Result) (string, error) {
	until, warning, err := r.pause(ctx, l)
	if err != nil {
		return "", err
	}
	out := r.cur.output(res)
	text, path := r.writeHandoff(ctx, s, handoff{
		Reason: fmt.Sprintf("%s reached its usage limit", l.tool),
		From:   l.tool, To: to.Name(), FromModel: l.model, FromSession: l.session, Output: out,
	})
	ev := task.LimitReached{Step: s.name(), Role: s.execRole(), Tool: l.tool, ResetsAt: until.UTC(), Limit: l.limit.Kind,
		Message: l.limit.Message, Warning: warning, Action: task.LimitActionSwitch, SwitchTo: to.Name(), Handoff: path}
	ev = task.MapText(ev, secrets.Scrub).(task.LimitReached)
	where := ""
	if path != "" {
		where = " (" + path + ")"
	}
	r.emit(0, ev, task.LevelWarn, fmt.Sprintf("%s hit its usage limit; continuing on %s with a handoff%s. %s",
		l.tool, to.Name(), where, task.ToolPause{Tool: l.tool, Until: until}.Describe(r.p.o.Now(), time.Local)))
	return text, nil
}
