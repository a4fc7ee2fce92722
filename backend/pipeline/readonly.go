package pipeline

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Only the developer edits. A step of any other role (unless settings give
// it write access) runs with the tool's own restriction where it has one
// (agent.Request.ReadOnly), and the pipeline makes sure of it: the
// worktree is recorded before the step and compared after it; whatever the
// step changed is saved on refs/boof-runner/<task>/stray/<execution>,
// reverted, logged as a warning naming the files, stored as a
// task.StrayReverted event, and noted at the top of the step's report.

// readOnly reports whether role's steps may not change the worktree.
func (r *run) readOnly(role task.Role) bool { return !r.set.Writes(role) }

// reuseWindow is how long the worktree a read-only step's guard found
// unchanged stands as the record before the next read-only step, when
// nothing else ran in between (observer → reviewer, planner →
// refinement, a retried attempt): a new record would find the same state
// at the cost of git's status (and, with uncommitted work, of a tree
// written through a temporary index). Far below any step's length, and
// well below a pause for the user (a parked task starts a new run).
const reuseWindow = time.Second

// verified is the record a read-only step's guard found the worktree
// unchanged against, and when; diff is the prompt diff the step was given,
// taken just before that record (nil when it had none).
type verified struct {
	snap worktree.Snapshot
	at   time.Time
	diff *promptDiff
}

// promptDiff is a step's prompt diff and the log lines making it wrote.
type promptDiff struct {
	text  string
	notes []loggedNote
}

type loggedNote struct {
	level task.LogLevel
	text  string
}

// promptDiff takes the diff of the worktree against its base for a prompt.
func (r *run) promptDiff(ctx context.Context) (*promptDiff, error) {
	d := &promptDiff{}
	text, err := r.p.o.Worktrees.PromptDiff(ctx, r.wt, r.set.Review.MaxInlineDiffBytes, func(level task.LogLevel, format string, args ...any) {
		n := loggedNote{level, fmt.Sprintf(format, args...)}
		d.notes = append(d.notes, n)
		r.note(0, n.level, n.text)
	})
	d.text = text
	return d, err
}

// reusedDiff returns the prompt diff of the last read-only step when its
// guard found the worktree unchanged and that record stands for the next
// step (see reuseWindow): the worktree, hence its diff, is the same. Its
// log lines are written again. nil when it must be taken anew.
func (r *run) reusedDiff() *promptDiff {
	v := r.ro.verified
	if v == nil || v.diff == nil || time.Since(v.at) >= reuseWindow {
		return nil
	}
	for _, n := range v.diff.notes {
		r.note(0, n.level, n.text)
	}
	return v.diff
}

// guardBefore records the worktree before a read-only step; nil when the
// step may write (or the task runs without a worktree of its own).
func (r *run) guardBefore(ctx context.Context, s stepSpec) (*worktree.Snapshot, error) {
	prev := r.ro.verified
	r.ro.verified = nil
	if !r.readOnly(s.role) || !r.wt.Isolated {
		return nil, nil
	}
	if prev != nil && time.Since(prev.at) < reuseWindow {
		snap := prev.snap
		return &snap, nil
	}
	snap, err := r.p.o.Worktrees.Snapshot(ctx, r.wt)
	if err != nil {
		if ctx.Err() != nil {
			return nil, errInterrupted
		}
		return nil, &failure{fmt.Sprintf("%s: cannot record the worktree before a read-only step: %v", s.name(), err)}
	}
	return &snap, nil
}

// guardAfter checks a read-only step against its snapshot and puts the
// worktree back. It returns the note for the step's report ("" when the
// step changed nothing) or a *failure when the worktree could not be put
// back; what the step changed is saved on the stray ref either way (or,
// when even that failed, left in place: nothing is lost).
func (r *run) guardAfter(s stepSpec, e task.Execution, attempt int, snap *worktree.Snapshot) (string, error) {
	if snap == nil {
		return "", nil
	}
	// The check runs even when the step was stopped: its changes must not
	// be swept into the work.
	ctx, cancel := context.WithTimeout(context.Background(), finalWriteTimeout)
	defer cancel()
	name := strconv.FormatInt(e.ID, 10)
	if e.ID == 0 {
		name = fmt.Sprintf("i%d-%s-a%d", r.iter, s.name(), attempt)
	}
	st, err := r.p.o.Worktrees.Restore(ctx, r.wt, *snap, name)
	if err != nil {
		msg := fmt.Sprintf("%s is read-only, but what it changed in the worktree could not be checked or saved aside (%v); the worktree is left as the step left it", s.name(), err)
		r.note(e.ID, task.LevelError, msg)
		return "", &failure{msg}
	}
	if len(st.Files) == 0 && !st.HeadMoved {
		r.ro.atBase = snap.Clean && st.Ref == "" && snap.Head == r.wt.BaseSHA
		r.ro.verified = &verified{snap: *snap, at: time.Now(), diff: r.cur.diff}
		return "", nil
	}
	r.ro.atBase = false
	if st.Files == nil {
		st.Files = []string{} // only HEAD moved
	}
	ev := task.StrayReverted{StepAttempt: r.stepAttempt(e, s, attempt), Files: st.Files, HeadMoved: st.HeadMoved,
		Ref: st.Ref, SHA: st.SHA, Unreverted: st.Unreverted, Error: st.Problem}
	what := describeStray(st)
	if len(st.Unreverted) > 0 {
		msg := fmt.Sprintf("%s is read-only but changed %s; it is all saved on %s (%s), but %s could not be put back (%s)",
			s.name(), what, st.Ref, shortSHA(st.SHA), quoteList(st.Unreverted), st.Problem)
		r.emit(e.ID, ev, task.LevelError, msg)
		return "", &failure{msg + ". Fix those files in the worktree by hand, or give the role write access (roles." +
			string(s.execRole()) + ".write), and retry."}
	}
	msg := fmt.Sprintf("%s is read-only but changed %s; the changes are saved on %s (%s) and were reverted",
		s.name(), what, st.Ref, shortSHA(st.SHA))
	r.emit(e.ID, ev, task.LevelWarn, msg)
	return "> **Note from Boof Runner:** " + msg + ".\n\n", nil
}

// describeStray says what a step changed: its files and whether it moved HEAD.
func describeStray(st worktree.Stray) string {
	var parts []string
	if len(st.Files) > 0 {
		parts = append(parts, quoteList(st.Files))
	}
	if st.HeadMoved {
		parts = append(parts, "HEAD (it committed or switched branches)")
	}
	return strings.Join(parts, " and ")
}

// quoteList quotes up to ten names, then says how many more.
func quoteList(names []string) string {
	var q []string
	for i, n := range names {
		if i == 10 {
			q = append(q, fmt.Sprintf("%d more", len(names)-10))
			break
		}
		q = append(q, strconv.Quote(n))
	}
	return strings.Join(q, ", ")
}

func shortSHA(s string) string {
	if len(s) > 10 {
		return s[:10]
	}
	return s
}
