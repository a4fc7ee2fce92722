package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Recovery is what Recover reconciled.
type Recovery struct {
	// Executions is how many open step records were closed.
	Executions int
	// Survivors is how many processes of the dead run were found alive and
	// stopped (each counted once).
	Survivors int
	// Unverified counts recorded pids left alone because no start time was
	// recorded for them (a record older than start times): pid reuse could
	// not be ruled out.
	Unverified int
	// Tasks lists the tasks moved from ongoing to stopped.
	Tasks []string
	// Finished lists the tasks whose decided outcome was completed.
	Finished []string
	// Adopted lists the ongoing tasks left to the pipeline (Adopter):
	// their runs go on elsewhere and the loop follows them.
	Adopted []string
}

// survivor is one process of the dead run, attributed to a task and step.
type survivor struct {
	taskID, step, command string
}

// Recover reconciles what a dead process left behind; call it while holding
// the lock, before the loop runs. First every process of the dead run is
// ended (SIGTERM, then SIGKILL) before any worktree is touched: every
// process in the cgroups its steps ran in (where the process runner used
// cgroups), every process carrying the data root's runner step tag
// (agents, their escapees and our own git commands), and every recorded
// pid whose start time still matches. Then every open execution is closed as stopped; an ongoing task
// whose outcome was already decided has its clean-up finished and moves to
// that outcome (pipeline.CompleteDecided); any other ongoing task becomes
// stopped with pipeline.InterruptedMessage, keeping its worktree and
// branch. Each task's log (and the runner's output, through OnLog) says
// what was done, counting the processes stopped and naming only the steps
// that had started. It returns the first store error it met, having tried
// everything else.
func (r *Runner) Recover(ctx context.Context) (Recovery, error) {
	var rec Recovery
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	open, err := r.o.Store.OpenExecutions(ctx)
	if err != nil {
		return rec, fmt.Errorf("recover: %w", err)
	}
	adopted, err := r.adoptable(ctx)
	if err != nil {
		return rec, fmt.Errorf("recover: %w", err)
	}
	open = slices.DeleteFunc(open, func(x task.Execution) bool { return adopted[x.TaskID] })
	found := r.endSurvivors(open, &rec)
	byTask := map[string][]survivor{}
	for _, s := range found {
		byTask[s.taskID] = append(byTask[s.taskID], s)
	}

	for _, x := range open {
		if err := r.o.Store.FinishExecution(ctx, x.ID, task.OutcomeStopped, -1, task.Usage{}, false); err != nil {
			keep(err)
		} else {
			keep(r.o.Store.AppendEvent(ctx, x.TaskID, task.StepFinished{StepAttempt: task.StepAttempt{Execution: x.ID,
				Role: x.Role, Iteration: x.Iteration, Round: x.Round, Attempt: x.Attempt}, Outcome: task.OutcomeStopped, ExitCode: -1}))
		}
		msg := "Recovery: the app exited before this run's next step started a process; its step record is closed"
		if x.PID > 0 {
			msg = fmt.Sprintf("Recovery: closed the %s step left open by a process that exited", execName(x))
		}
		r.log(ctx, x.TaskID, x.ID, task.LevelWarn, msg)
		rec.Executions++
	}
	for id, ss := range byTask {
		if id == "" {
			continue
		}
		r.log(ctx, id, 0, task.LevelWarn, "Recovery: stopped "+describeSurvivors(ss))
	}

	ongoing, err := r.o.Store.ListTasks(ctx, store.Filter{Statuses: []task.Status{task.StatusOngoing}})
	if err != nil {
		return rec, fmt.Errorf("recover: %w", err)
	}
	for _, t := range ongoing {
		if adopted[t.ID] {
			rec.Adopted = append(rec.Adopted, t.ID)
			r.log(ctx, t.ID, 0, task.LevelInfo, "Recovery: the task's run goes on in the cluster; following it")
			continue
		}
		d, ok, err := r.o.Store.DecidedOutcome(ctx, t.ID)
		if err != nil {
			keep(err)
		} else if ok {
			if _, err := r.o.Pipeline.CompleteDecided(ctx, t, d); err != nil {
				keep(err)
				continue
			}
			keep(r.o.Store.AppendEvent(ctx, t.ID, task.Recovered{Completed: d.Status, At: r.o.Now().UTC()}))
			r.log(ctx, t.ID, 0, task.LevelInfo, fmt.Sprintf("Recovery: finished the clean-up; the task is %s", d.Status))
			rec.Finished = append(rec.Finished, t.ID)
			continue
		}
		_, err = r.o.Store.Transition(ctx, t.ID, task.StatusStopped, store.TransitionNote{Reason: "interrupted", Error: pipeline.InterruptedMessage})
		if err != nil {
			keep(err)
			continue
		}
		r.log(ctx, t.ID, 0, task.LevelWarn, pipeline.InterruptedMessage+"; worktree and branch kept")
		keep(r.o.Store.AppendEvent(ctx, t.ID, task.Recovered{Reason: pipeline.InterruptedMessage, At: r.o.Now().UTC()}))
		rec.Tasks = append(rec.Tasks, t.ID)
	}
	if rec.Executions+rec.Survivors+len(rec.Tasks)+len(rec.Finished)+len(rec.Adopted) > 0 || rec.Unverified > 0 {
		r.log(ctx, "", 0, task.LevelWarn, rec.String())
	}
	return rec, first
}

// String is the one-line summary printed on the runner's output.
func (rec Recovery) String() string {
	s := fmt.Sprintf("recovery: stopped %d surviving process(es), closed %d step record(s), stopped %d interrupted task(s), finished the clean-up of %d task(s)",
		rec.Survivors, rec.Executions, len(rec.Tasks), len(rec.Finished))
	if rec.Unverified > 0 {
		s += fmt.Sprintf("; %d recorded pid(s) left alone (no start time recorded, the pid may name another process now)", rec.Unverified)
	}
	if len(rec.Adopted) > 0 {
		s += fmt.Sprintf("; following %d task(s) whose run goes on in the cluster", len(rec.Adopted))
	}
	return s
}

// endSurvivors stops every process of the dead run and returns them, each
// once, attributed to its task and step.
func (r *Runner) endSurvivors(open []task.Execution, rec *Recovery) []survivor {
	seen := map[[2]uint64]bool{}
	var out []survivor
	add := func(p proc.Tagged, taskID, step string) {
		k := [2]uint64{uint64(p.PID), p.Start}
		if seen[k] {
			return
		}
		seen[k] = true
		out = append(out, survivor{taskID: taskID, step: step, command: p.Command})
	}
	if r.o.Scope != "" {
		// First the dead run's cgroups: whatever its steps started, tagged
		// or not, however it hid.
		ps, err := proc.KillStaleCgroups(r.o.Scope, r.o.Grace)
		if err != nil {
			r.o.Logger.Warn("runner: recovery could not stop every process in the dead run's cgroups", "err", err)
		}
		for _, p := range ps {
			add(p, p.TaskID(), p.Step())
		}
		ps, err = proc.KillTagged(proc.TagPrefix(r.o.Scope, proc.OwnerRun), r.o.Grace)
		if err != nil {
			r.o.Logger.Warn("runner: recovery could not stop every tagged process", "err", err)
		}
		for _, p := range ps {
			add(p, p.TaskID(), p.Step())
		}
	}
	for _, x := range open {
		starts := map[int]uint64{}
		for _, pid := range append([]int{x.PID}, x.PIDs...) {
			if pid <= 1 {
				continue
			}
			if st, ok := x.Starts[pid]; ok {
				starts[pid] = st
			} else {
				rec.Unverified++
			}
		}
		if len(starts) == 0 {
			continue
		}
		ps, err := proc.KillRecorded(x.PGID, starts, r.o.Grace)
		if err != nil && !errors.Is(err, proc.ErrUnsafeTarget) {
			r.o.Logger.Warn("runner: recovery could not stop a survivor", "task", x.TaskID, "pgid", x.PGID, "err", err)
		}
		for _, p := range ps {
			add(p, x.TaskID, execName(x))
		}
	}
	rec.Survivors = len(out)
	return out
}

// describeSurvivors says how many processes were stopped, per step.
func describeSurvivors(ss []survivor) string {
	count := map[string]int{}
	var steps []string
	for _, s := range ss {
		step := s.step
		if step == "" {
			step = "unattributed"
		}
		if strings.HasPrefix(s.command, "git ") || strings.Contains(s.command, "/git ") {
			step += ": " + gitVerb(s.command)
		}
		if count[step] == 0 {
			steps = append(steps, step)
		}
		count[step]++
	}
	sort.Strings(steps)
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = fmt.Sprintf("%s (%d)", s, count[s])
	}
	return fmt.Sprintf("%d surviving process(es) of the run the app left: %s", len(ss), strings.Join(parts, ", "))
}

// gitVerb returns "git <verb> [<sub>]" of a git command line.
func gitVerb(cmd string) string {
	f := strings.Fields(cmd)
	var words []string
	for i := 1; i < len(f) && len(words) < 2; i++ {
		switch {
		case f[i] == "-C" || f[i] == "-c":
			i++
		case strings.HasPrefix(f[i], "-"):
		default:
			words = append(words, f[i])
		}
	}
	return strings.TrimSpace("git " + strings.Join(words, " "))
}

// execName is a step's name as the pipeline logs it (role, "-round").
func execName(x task.Execution) string {
	if x.Round > 0 {
		return fmt.Sprintf("%s-%d", x.Role, x.Round)
	}
	return string(x.Role)
}

// log stores one recovery line in the task's log (none for taskID "") and
// prints it on the runner's output.
func (r *Runner) log(ctx context.Context, taskID string, execID int64, level task.LogLevel, text string) {
	if taskID != "" {
		if err := r.o.Store.AppendLog(ctx, taskID, execID, level, text); err != nil {
			r.o.Logger.Warn("runner: cannot store a recovery log line", "task", taskID, "err", err)
		}
	}
	if r.o.OnLog != nil {
		r.o.OnLog(taskID, execID, level, text)
	} else {
		r.o.Logger.Warn(text, "task", taskID)
	}
}

// adoptable returns the ongoing tasks without a decided outcome whose runs
// the pipeline (an Adopter) follows elsewhere.
func (r *Runner) adoptable(ctx context.Context) (map[string]bool, error) {
	out := map[string]bool{}
	ad, ok := r.o.Pipeline.(Adopter)
	if !ok {
		return out, nil
	}
	ongoing, err := r.o.Store.ListTasks(ctx, store.Filter{Statuses: []task.Status{task.StatusOngoing}})
	if err != nil {
		return nil, err
	}
	for _, t := range ongoing {
		if _, decided, err := r.o.Store.DecidedOutcome(ctx, t.ID); err == nil && !decided && ad.Adopts(ctx, t) {
			out[t.ID] = true
		}
	}
	return out, nil
}
