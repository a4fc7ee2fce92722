package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/boof-runner/boof-runner/backend/budget"
	"github.com/boof-runner/boof-runner/backend/failpoint"
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
	p     *Pipeline
	st    Store
	t     task.Task
	set   settings.Settings
	iter  int
	wt    worktree.Worktree
	first *task.Execution // opened by the claim, used by the first step
	// injected are the user's injected prompts, in every step's prompt.
	injected injections
	// atts are the task's attachments, listed in every prompt; readDirs
	// the directories holding them, which the tools may read.
	atts     []Attachment
	readDirs []string
	// rounds are the fix rounds left and the round each step is at.
	rounds rounds
	// settled are the verify command and the final plan, once known.
	settled settled
	// res is where the run goes on from (after a usage limit, a crash).
	res resumeState
	// start is where this run begins (task.RunStart); runNo the planned
	// run it is (completed runs + 1); humanRev the "## Human review"
	// section of a fix run.
	start    task.RunStart
	runNo    int
	humanRev string
	// switched are the tools the task left at their usage limits and the
	// handoff files written.
	switched toolSwitches
	// ro is what the read-only guard knows of the worktree.
	ro readOnlyState
	// cur is the running step: its attempt's watch, what it ran with, its
	// handoff's files and its prompt diff.
	cur running
}

// Run executes one iteration of a task the caller has claimed (status
// ongoing); first is the execution the claim opened for the planner step
// (its ID may be 0 when the claim opened none). Run moves the task to its
// next status itself — done, failed, stopped, actions, or pending when
// more runs remain — after the step output is stored, and returns that
// outcome. The error is only for failures to record the outcome (the store
// is unreachable); the task may then still be ongoing, for recovery.
func (p *Pipeline) Run(ctx context.Context, t task.Task, first task.Execution) (Result, error) {
	r := &run{p: p, st: p.o.Store, t: t, set: p.o.Settings(), iter: t.NextIteration(), start: t.RunStart, runNo: t.CompletedRuns + 1}
	if first.ID != 0 {
		r.first = &first
	}
	r.rounds = newRounds(r.set.Review.MaxFixRounds)
	if err := r.loadResume(ctx); err != nil {
		return r.finish(ctx, err)
	}
	err := r.execute(r.gitCtx(ctx, "git"))
	return r.finish(ctx, err)
}

// loadResume reads where the run goes on after a usage limit, and the
// first section of the iteration's first run.
func (r *run) loadResume(ctx context.Context) error {
	rp, ok, err := r.st.ResumePoint(ctx, r.t.ID)
	if err != nil {
		return err
	}
	if ok && rp.Iteration == r.iter {
		r.res.point, r.res.afterSection = &rp, rp.AfterSection
		return nil
	}
	r.res.afterSection, err = r.st.LastSectionID(ctx, r.t.ID)
	return err
}

// execute runs the iteration and returns nil when the task passed.
func (r *run) execute(ctx context.Context) error {
	secs, err := r.st.Sections(ctx, r.t.ID)
	if err != nil {
		return err
	}
	r.injected.load(secs)
	if r.t.Command != "" && commandText(secs) == "" {
		r.logf(task.LevelWarn, "Command template %q has no copy in this task (it was deleted before tasks kept one); the prompts go without it", r.t.Command)
	}
	if err := r.loadAttachments(ctx); err != nil {
		return err
	}
	if r.res.point != nil {
		r.loadReplay(secs)
		r.logf(task.LevelInfo, "Going on after the usage limit of %s: from step %s", r.res.point.Tool, r.res.point.Step)
	}
	repo := r.t.Repo
	if repo == "" {
		repo = r.set.WorkDir()
	}
	if repo == "" {
		return &failure{"no working directory: set workingDirectory in settings or the task's repo"}
	}
	if msg := workDirProblem(repo); msg != "" {
		return &failure{msg}
	}
	pctx, stopped := r.stoppable(r.gitCtx(ctx, "provision"))
	wt, err := r.p.o.Worktrees.Provision(pctx, worktree.Request{Repo: repo, TaskID: r.t.ID, Base: r.t.Base, Root: r.set.Worktree.Root}, r.wlog)
	r.sweep("provision")
	if stopped() {
		return errStopped
	}
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return &failure{r.p.o.Describe(err)}
	}
	r.wt = wt
	vc, err := ResolveVerify(ctx, r.st, r.set, r.t.ID, wt.Repo)
	if err != nil {
		return fmt.Errorf("verify command: %w", err)
	}
	r.settled.setVerify(vc)
	return r.iteration(ctx, secs)
}

// finish decides the outcome, makes it durable (with the completed run
// counted in the same transaction), then cleans the worktree up and moves
// the task to its next status (complete). A crash after the decision is
// finished by the next start (Pipeline.CompleteDecided), so the outcome of
// a run that got this far is never lost and never counted twice.
func (r *run) finish(ctx context.Context, err error) (Result, error) {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalWriteTimeout)
	defer cancel()
	if err != nil && ctx.Err() != nil && !errors.Is(err, errStopped) {
		err = errInterrupted
	}
	if r.first != nil { // the claimed execution never ran a step
		o := task.OutcomeFailed
		var lim *limited
		switch {
		case errors.Is(err, errStopped) || errors.Is(err, errInterrupted) || errors.As(err, new(*budgetStop)) || errors.As(err, new(*breakerStop)):
			o = task.OutcomeStopped
		case errors.As(err, &lim):
			o = task.OutcomeLimited
		}
		_ = r.st.FinishExecution(wctx, r.first.ID, o, -1, task.Usage{}, false)
		r.first = nil
	}
	res := Result{Iteration: r.iter}
	r.where(&res)
	note := store.TransitionNote{}
	d := store.Decided{TaskID: r.t.ID}
	var fe *failure
	var pk *parked
	var bs *budgetStop
	var ks *breakerStop
	var lim *limited
	if errors.As(err, &lim) && ctx.Err() == nil {
		return r.release(wctx, lim)
	}
	if derr := r.st.DropResume(wctx, r.t.ID); derr != nil {
		r.p.o.Logger.Warn("pipeline: cannot drop the resume point", "task", r.t.ID, "err", derr)
	}
	switch {
	case errors.As(err, &bs):
		res.Status, res.Message, d.Cleanup = task.StatusStopped, bs.r.Reason(), cleanupStopped
		note.Reason = budget.StatusReason(bs.r.Scope)
		r.logf(task.LevelWarn, "Stopped: %s; worktree and branch kept", bs.r.Reason())
	case errors.As(err, &ks):
		res.Status, res.Message, d.Cleanup = task.StatusStopped, ks.c.Reason, cleanupStopped
		note.Reason = budget.BreakerPrefix + string(ks.c.Breaker)
		r.logf(task.LevelWarn, "Stopped: %s; worktree and branch kept", ks.c.Reason)
	case err == nil && !r.start.IsFix() && r.runNo < r.t.Runs:
		d.CountRun = true
		r.logf(task.LevelInfo, "Run %d of %d complete; the task is queued for run %d", r.runNo, r.t.Runs, r.runNo+1)
		res.Status, note.Reason = task.StatusPending, "next run"
	case err == nil:
		d.CountRun, d.CountFix = !r.start.IsFix(), r.start.IsFix()
		res.Status, note.Reason, d.Cleanup = task.StatusDone, "approved", cleanupDone
		r.logf(task.LevelInfo, "Task done")
	case errors.As(err, &pk):
		res.Status, note.Reason = task.StatusActions, "questions"
		if qerr := r.st.SetQuestions(wctx, r.t.ID, scrubAll(pk.questions)); qerr != nil {
			return res, fmt.Errorf("record questions: %w", qerr)
		}
		r.logf(task.LevelInfo, "The planner needs answers (%d question(s)); the task waits in actions", len(pk.questions))
	case errors.Is(err, errStopped):
		res.Status, res.Message, d.Cleanup = task.StatusStopped, "stopped by user", cleanupStopped
		note.Reason = "stopped by user"
		r.logf(task.LevelWarn, "Stopped by user; worktree and branch kept")
	case errors.Is(err, errInterrupted):
		res.Status, res.Message, d.Cleanup = task.StatusStopped, InterruptedMessage, cleanupStopped
		note.Reason = "interrupted"
		r.logf(task.LevelWarn, "%s", InterruptedMessage)
	case errors.As(err, &fe):
		res.Status, res.Message, d.Cleanup = task.StatusFailed, fe.msg, cleanupFailed
		note.Reason = "failed"
		r.logf(task.LevelError, "Task failed: %s", fe.msg)
	default:
		res.Status, res.Message, d.Cleanup = task.StatusFailed, err.Error(), cleanupFailed
		note.Reason = "failed"
		r.logf(task.LevelError, "Task failed: %s", err.Error())
	}
	res.Message = secrets.Scrub(res.Message) // a tool's error text is agent output
	note.Error = res.Message
	r.outcomeNote(&note, nil)
	d.Status, d.Note = res.Status, note
	if r.wt.Dir == "" {
		d.Cleanup = ""
	}
	if d.Cleanup != "" {
		b, jerr := json.Marshal(r.wt)
		if jerr != nil {
			return res, fmt.Errorf("record outcome: %w", jerr)
		}
		d.Worktree = b
	}
	if _, derr := r.st.Decide(wctx, d); derr != nil {
		return res, fmt.Errorf("record outcome %s: %w", res.Status, derr)
	}
	r.announce(task.OutcomeDecided{Status: d.Status, Cleanup: d.Cleanup})
	failpoint.Hit(FailDecided)
	return r.complete(wctx, d)
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

// workDirProblem says why the working directory cannot be used before git
// is asked: it does not exist, or it is a file; "" when it is a folder.
func workDirProblem(dir string) string {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "The working directory " + dir + " does not exist."
	case err != nil:
		return "The working directory " + dir + " cannot be read: " + err.Error()
	case !fi.IsDir():
		return "The working directory " + dir + " is a file, not a folder."
	}
	return ""
}
