package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// step runs a step (runStep) and, when an attempt of it ran, writes the
// step's handoff: every step end leaves one next to the task's transcripts.
func (r *run) step(ctx context.Context, s stepSpec) (agent.Result, error) {
	r.cur.begin()
	r.ro.atBase = false
	res, err := r.runStep(ctx, s)
	if r.cur.ranAttempt() {
		r.stepHandoff(ctx, s, res, err)
	}
	return res, err
}

// stepHandoff writes the handoff of a step that ended: the tool, model
// and session of its last attempt, its report, what is broken (its
// failure, a verdict that is not an approval) and the next step. The
// files touched are listed again only after a step that may write; a
// read-only step reuses the list the last one took, or has none when its
// guard found the worktree clean at the base commit (no git process).
func (r *run) stepHandoff(ctx context.Context, s stepSpec, res agent.Result, err error) {
	if r.p.o.TranscriptDir == "" { // nowhere to keep it: no git or store work for nothing
		return
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalWriteTimeout)
	defer cancel()
	files := r.cur.listFiles(r.readOnly(s.role), r.ro.atBase, func() []string { return r.changedFiles(wctx) })
	broken, next := stepEnd(s, res, err)
	last := r.cur.last
	h := handoff{Reason: fmt.Sprintf("step %s ended", s.name()), From: last.tool, FromModel: last.model,
		FromSession: last.session, Done: clip(strings.TrimSpace(res.Report), handoffReportChars), Broken: broken,
		Next: next, Files: files}
	if broken != "" {
		h.Output = r.cur.output(res)
	}
	r.writeHandoff(wctx, s, h)
}

// stepEnd says what is broken after step s ended with res and err ("" when
// nothing is) and what comes next.
func stepEnd(s stepSpec, res agent.Result, err error) (broken, next string) {
	again := fmt.Sprintf("Retry the task: step %s goes on from where it stopped (in its native session on the same tool, "+
		"with this handoff on another).", s.name())
	var fe *failure
	var lim *limited
	switch {
	case errors.Is(err, errStopped):
		return "The step was stopped before it finished.", again
	case errors.Is(err, errInterrupted):
		return "The step was interrupted (the app shut down or the run was canceled).", again
	case errors.As(err, &lim):
		return fmt.Sprintf("%s reached its usage limit: %s", lim.tool, strings.TrimSpace(lim.limit.Message)),
			fmt.Sprintf("Step %s goes on once %s's pause ends, or on another tool with this handoff.", s.name(), lim.tool)
	case errors.As(err, &fe):
		return fe.msg, again
	case err != nil:
		return err.Error(), again
	}
	switch s.role {
	case task.RolePlanner, task.RolePlannerAnswer:
		return "", "The refinement turns the plan into the final plan."
	case task.RoleRefinement:
		return "", "The developer implements the final plan."
	case task.RoleDeveloper:
		return "", "The review gate: the verify command, the observer when enabled, then the reviewer."
	case task.RoleObserver, task.RoleReviewer:
		if v := task.ParseVerdict(res.Report); !v.Approved() {
			return fmt.Sprintf("The %s did not approve (verdict %q): see what was done.", s.role, v),
				"A developer fix round addresses the report, within the fix-round budget."
		}
		if s.role == task.RoleObserver {
			return "", "The reviewer reviews the change."
		}
		return "", "The task is done: the user reviews the diff and accepts it."
	}
	return "", ""
}

// cutHandoff returns the newest handoff the task's earlier runs wrote for
// step s in this iteration ("" when none can be read).
func (r *run) cutHandoff(s stepSpec) string {
	if r.p.o.TranscriptDir == "" {
		return ""
	}
	_, path := latestHandoff(filepath.Join(r.p.o.TranscriptDir, r.t.ID), strconv.Itoa(r.iter), s.name())
	if path == "" {
		return ""
	}
	b, err := userfile.ReadKept(path)
	if err != nil {
		r.logf(task.LevelWarn, "Cannot read the handoff %s: %v", path, err)
		return ""
	}
	return string(b)
}

// cutSession decides how the step a stopped run cut short goes on: in the
// native session of its last attempt when that ran on the same tool (and
// the tool resumes), else fresh — with the step's latest handoff when the
// last attempt ran on another tool (the role's tool changed since).
func (r *run) cutSession(ctx context.Context, s stepSpec, tool agent.Tool) (session, handoff string) {
	execs, err := r.st.Executions(ctx, r.t.ID)
	if err != nil {
		r.logf(task.LevelWarn, "Cannot read the sessions of step %s: it starts in a fresh session: %v", s.name(), err)
		return "", ""
	}
	var last *task.Execution
	for i, e := range execs {
		if e.Iteration == r.iter && e.Role == s.execRole() && e.Round == s.round && e.SessionID != "" {
			last = &execs[i]
		}
	}
	switch {
	case last == nil:
		return "", ""
	case last.Tool == tool.Name() && tool.Capabilities().NativeResume:
		return last.SessionID, ""
	case last.Tool == tool.Name():
		return "", ""
	}
	h := r.cutHandoff(s)
	with := "with its handoff"
	if h == "" {
		with = "without a handoff (none was written)"
	}
	r.logf(task.LevelInfo, "Step %s was cut short on %s (session %s); it now runs on %s in a fresh session %s",
		s.name(), last.Tool, last.SessionID, tool.Name(), with)
	return "", h
}
