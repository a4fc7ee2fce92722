package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// finalWriteTimeout bounds the writes that record a run's end after the
// run's context was canceled.
const finalWriteTimeout = 30 * time.Second

// run is the state of one Run.
type run struct {
	p         *Pipeline
	st        Store
	t         task.Task
	set       settings.Settings
	iter      int
	wt        worktree.Worktree
	first     *task.Execution // opened by the claim, used by the first step
	injected  []string
	obsBudget int // observer fix rounds left, shared across the run
	obsRound  int
	revRound  int
	devRound  int
	finalPlan string
}

// Run executes one iteration of a task the caller has claimed (status
// ongoing); first is the execution the claim opened for the planner step
// (its ID may be 0 when the claim opened none). Run moves the task to its
// next status itself — done, failed, stopped, actions, or pending when
// more runs remain — after the step output is stored, and returns that
// outcome. The error is only for failures to record the outcome (the store
// is unreachable); the task may then still be ongoing, for recovery.
func (p *Pipeline) Run(ctx context.Context, t task.Task, first task.Execution) (Result, error) {
	r := &run{p: p, st: p.o.Store, t: t, set: p.o.Settings(), iter: t.CompletedRuns + 1}
	if first.ID != 0 {
		r.first = &first
	}
	r.obsBudget = r.set.Review.MaxFixRounds
	err := r.execute(ctx)
	return r.finish(ctx, err)
}

// execute runs the iteration and returns nil when the task passed.
func (r *run) execute(ctx context.Context) error {
	r.logf(task.LevelInfo, "Run %d of %d started", r.iter, max(r.t.Runs, 1))
	secs, err := r.st.Sections(ctx, r.t.ID)
	if err != nil {
		return err
	}
	for _, s := range secs {
		if s.Kind == task.SectionInjectedPrompt {
			r.injected = append(r.injected, s.Body)
		}
	}
	repo := r.t.Repo
	if repo == "" {
		repo = r.set.WorkingDirectory
	}
	if repo == "" {
		return &failure{"no working directory: set workingDirectory in settings or the task's repo"}
	}
	wt, err := r.p.o.Worktrees.Provision(ctx, worktree.Request{Repo: repo, TaskID: r.t.ID, Base: r.t.Base, Root: r.set.Worktree.Root}, r.wlog)
	if err != nil {
		var ub *worktree.UnknownBaseError
		if errors.As(err, &ub) {
			return &failure{ub.Error()}
		}
		if ctx.Err() != nil {
			return errInterrupted
		}
		return &failure{"worktree: " + err.Error()}
	}
	r.wt = wt
	return r.iteration(ctx, secs)
}

// finish records the outcome and moves the task to its next status.
func (r *run) finish(ctx context.Context, err error) (Result, error) {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalWriteTimeout)
	defer cancel()
	if err != nil && ctx.Err() != nil && !errors.Is(err, errStopped) {
		err = errInterrupted
	}
	if r.first != nil { // the claimed execution never ran a step
		o := task.OutcomeFailed
		if errors.Is(err, errStopped) || errors.Is(err, errInterrupted) {
			o = task.OutcomeStopped
		}
		_ = r.st.FinishExecution(wctx, r.first.ID, o, -1, task.Usage{}, false)
		r.first = nil
	}
	res := Result{Iteration: r.iter}
	note := store.TransitionNote{}
	var outcome worktree.Outcome
	var fe *failure
	var pk *parked
	switch {
	case err == nil:
		n, ierr := r.st.IncrementCompletedRuns(wctx, r.t.ID)
		if ierr != nil {
			return res, fmt.Errorf("record run: %w", ierr)
		}
		if n < r.t.Runs {
			r.logf(task.LevelInfo, "Run %d of %d complete; the task is queued for run %d", n, r.t.Runs, n+1)
			res.Status, note.Reason = task.StatusPending, "next run"
			r.outcomeNote(&note, nil)
			return r.transition(wctx, res, note)
		}
		res.Status, note.Reason, outcome = task.StatusDone, "approved", worktree.OutcomeDone
		r.logf(task.LevelInfo, "Task done")
	case errors.As(err, &pk):
		res.Status, note.Reason = task.StatusActions, "questions"
		if qerr := r.st.SetQuestions(wctx, r.t.ID, scrubAll(pk.questions)); qerr != nil {
			return res, fmt.Errorf("record questions: %w", qerr)
		}
		r.logf(task.LevelInfo, "The planner needs answers (%d question(s)); the task waits in actions", len(pk.questions))
		r.outcomeNote(&note, nil)
		return r.transition(wctx, res, note)
	case errors.Is(err, errStopped):
		res.Status, res.Message, outcome = task.StatusStopped, "stopped by user", worktree.OutcomeStopped
		note.Reason = "stopped by user"
		r.logf(task.LevelWarn, "Stopped by user; worktree and branch kept")
	case errors.Is(err, errInterrupted):
		res.Status, res.Message, outcome = task.StatusStopped, InterruptedMessage, worktree.OutcomeStopped
		note.Reason = "interrupted"
		r.logf(task.LevelWarn, "%s", InterruptedMessage)
	case errors.As(err, &fe):
		res.Status, res.Message, outcome = task.StatusFailed, fe.msg, worktree.OutcomeFailed
		note.Reason = "failed"
		r.logf(task.LevelError, "Task failed: %s", fe.msg)
	default:
		res.Status, res.Message, outcome = task.StatusFailed, err.Error(), worktree.OutcomeFailed
		note.Reason = "failed"
		r.logf(task.LevelError, "Task failed: %s", err.Error())
	}
	res.Message = secrets.Scrub(res.Message) // a tool's error text is agent output
	note.Error = res.Message
	var rep *worktree.FinishReport
	if r.wt.Dir != "" {
		fr, ferr := r.p.o.Worktrees.Finish(wctx, r.wt, outcome, worktree.Policy{OnDone: r.set.Worktree.OnDone, OnFailure: r.set.Worktree.OnFailure}, r.wlog)
		if ferr != nil {
			r.logf(task.LevelWarn, "Worktree cleanup: %v", ferr)
		} else {
			rep = &fr
		}
	}
	r.outcomeNote(&note, rep)
	return r.transition(wctx, res, note)
}

func (r *run) outcomeNote(note *store.TransitionNote, rep *worktree.FinishReport) {
	if !r.wt.Isolated {
		return
	}
	note.Branch, note.BaseSHA, note.WorktreePath = r.wt.Branch, r.wt.BaseSHA, r.wt.Dir
	if rep != nil {
		note.HeadSHA = rep.HeadSHA
	}
}

func (r *run) transition(ctx context.Context, res Result, note store.TransitionNote) (Result, error) {
	if _, err := r.st.Transition(ctx, r.t.ID, res.Status, note); err != nil {
		return res, fmt.Errorf("record status %s: %w", res.Status, err)
	}
	return res, nil
}

// choice returns the tool and model of a role: the task's override, else
// settings; ok is false for an observer nobody configured.
func (r *run) choice(role task.Role) (settings.ToolRef, bool) {
	tr := role
	if role == task.RolePlannerAnswer {
		tr = task.RolePlanner
	}
	if c, ok := r.t.Tools[tr]; ok && c.Tool != "" {
		return settings.ToolRef{Tool: c.Tool, Model: c.Model}, true
	}
	return r.set.Role(tr)
}

func (r *run) transcriptPath(name string, attempt int) string {
	return r.p.TranscriptPath(r.t.ID, r.iter, name, attempt)
}

// TranscriptPath returns where the raw transcript of a step attempt goes
// ("" when the pipeline keeps none).
func (p *Pipeline) TranscriptPath(taskID string, iteration int, step string, attempt int) string {
	if p.o.TranscriptDir == "" {
		return ""
	}
	return filepath.Join(p.o.TranscriptDir, taskID, fmt.Sprintf("i%d-%s-a%d.log", iteration, step, attempt))
}

// scrubAll scrubs each of texts (agent output) into a new slice.
func scrubAll(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = secrets.Scrub(t)
	}
	return out
}
