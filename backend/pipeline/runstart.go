package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// startAt is what a run keeps from earlier work and where it begins.
type startAt struct {
	// plan and finalPlan are reports reused instead of running the
	// planner and the refinement ("" = run that step).
	plan, finalPlan string
	// developed: the developer's first step is done; the run continues
	// at the review gate.
	developed bool
	// drops are the hunks a fix run reverts before the developer runs.
	drops []task.HunkDrop
}

// begin decides where the run starts (task.RunStart), loads what it
// reuses, and announces the run (task.RunStarted):
//   - a resumed run keeps the planner report, final plan and developer
//     reports its cut-short attempt stored in this iteration, and begins at
//     the first step that has none (the review gate after a developer);
//   - a fix run and a restart from the developer reuse the task's last
//     final plan and begin at the developer; a fix run reads its review.
func (r *run) begin(ctx context.Context, secs []task.Section) (startAt, error) {
	var at startAt
	kind, step := task.RunPlanned, string(task.RolePlanner)
	if r.start.Resume {
		at = r.resumePoint(secs)
		kind, r.res.note = task.RunResumed, true
	}
	if r.start.IsFix() {
		cr, err := r.st.ChangeRequestByID(ctx, r.start.Review)
		if err != nil {
			return at, fmt.Errorf("read the review of fix run %d: %w", r.start.Fix, err)
		}
		r.humanRev, at.drops = cr.Body, cr.Drops
	}
	if at.finalPlan == "" && (r.start.From == task.RoleDeveloper || r.start.IsFix()) {
		at.finalPlan = lastFinalPlan(secs)
		if at.finalPlan == "" {
			return at, &failure{"there is no final plan to start the developer from; retry the task from the planner"}
		}
		if kind != task.RunResumed {
			kind = task.RunFromDeveloper
		}
	}
	if r.start.IsFix() && kind != task.RunResumed {
		kind = task.RunFix
	}
	switch {
	case at.developed:
		step = "review gate"
	case at.finalPlan != "":
		step = string(task.RoleDeveloper)
	case at.plan != "":
		step = string(task.RoleRefinement)
	}
	ev := task.RunStarted{Iteration: r.iter, Start: kind, Step: step, Interrupted: r.res.note}
	var msg string
	switch {
	case r.start.IsFix():
		ev.Fix = r.start.Fix
		msg = fmt.Sprintf("Fix run %d for your review started at the %s", r.start.Fix, step)
	default:
		ev.Run, ev.Runs = r.runNo, max(r.t.Runs, 1)
		msg = fmt.Sprintf("Run %d of %d started", r.runNo, max(r.t.Runs, 1))
		if step != string(task.RolePlanner) {
			msg += " at the " + step
		}
	}
	if kind == task.RunResumed {
		msg += "; it continues the attempt that was cut short"
	}
	r.emit(0, ev, task.LevelInfo, msg)
	return at, nil
}

// resumePoint finds what the cut-short attempt of this iteration
// finished: its planner report, final plan and developer reports, and sets
// the round counters past the rounds it ran.
func (r *run) resumePoint(secs []task.Section) startAt {
	var at startAt
	for _, s := range secs {
		if s.Iteration != r.iter {
			continue
		}
		switch s.Kind {
		case task.SectionPlannerReport:
			at.plan = s.Body
		case task.SectionFinalPlan:
			at.finalPlan = s.Body
		case task.SectionDeveloperReport:
			at.developed = true
		}
		r.rounds.seen(s)
	}
	if at.finalPlan == "" {
		at.developed = false
	}
	return at
}

// lastFinalPlan is the task's latest final plan, "" when none.
func lastFinalPlan(secs []task.Section) string {
	plan := ""
	for _, s := range secs {
		if s.Kind == task.SectionFinalPlan {
			plan = s.Body
		}
	}
	return plan
}

// dropHunks reverts the hunks the user dropped, each in a "Drop hunk"
// commit of its own on the task branch, before the developer runs (a hunk
// already reverted — a resumed fix run — is skipped). A hunk that no
// longer reverse-applies fails the run, naming it.
func (r *run) dropHunks(ctx context.Context, drops []task.HunkDrop) error {
	r.ro.verified = nil
	for _, d := range drops {
		msg := fmt.Sprintf("Drop hunk %d of %s\n\nThe user dropped this hunk (%s) in review; fix run %d reverts it before the developer runs.\n",
			d.Index, d.File, d.Header, r.start.Fix)
		commit, already, err := r.p.o.Worktrees.DropHunk(ctx, r.wt, d, msg)
		var de *worktree.DropError
		switch {
		case errors.As(err, &de):
			return &failure{fmt.Sprintf("the dropped hunk %d of %s (%s) no longer reverse-applies in the worktree: %s",
				d.Index, d.File, d.Header, strings.TrimSpace(de.Detail))}
		case err != nil:
			if ctx.Err() != nil {
				return errInterrupted
			}
			return &failure{fmt.Sprintf("drop hunk %d of %s: %v", d.Index, d.File, err)}
		}
		text := fmt.Sprintf("Dropped hunk %d of %s (%s): commit %s", d.Index, d.File, d.Header, shortSHA(commit))
		if already {
			text = fmt.Sprintf("Hunk %d of %s (%s) was already dropped", d.Index, d.File, d.Header)
		}
		r.emit(0, task.HunkDropped{File: d.File, Index: d.Index, Header: d.Header, Commit: commit}, task.LevelInfo, text)
	}
	return nil
}
