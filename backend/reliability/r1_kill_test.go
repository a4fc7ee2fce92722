//go:build linux && reliability

package reliability

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/task"
)

// killPoint is a point of the pipeline where the runner is killed with
// SIGKILL: at a failpoint (a kill -9 exactly between two steps), or from
// outside once ready says the point is reached.
type killPoint struct {
	name      string
	prompt    string
	opts      envOpts
	failpoint string
	ready     func(e *env, id string) bool
	short     bool
}

func stepRunning(role task.Role, minRound int) func(e *env, id string) bool {
	return func(e *env, id string) bool { return e.openStep(id, role, minRound) }
}

func gitRunning(sub string) func(e *env, id string) bool {
	return func(e *env, id string) bool { return e.taggedCommand(sub) }
}

func r1Points() []killPoint {
	return []killPoint{
		{name: "provisioning: during git worktree add", prompt: "Provision.", opts: envOpts{slowCheckout: true}, short: true,
			ready: func(e *env, id string) bool {
				files, _ := filepath.Glob(filepath.Join(e.repo, ".boof-runner-worktrees", id, "big", "*.txt"))
				return len(files) >= 3 && e.taggedCommand("git")
			}},
		{name: "provisioning: after worktree add, before the meta sidecar", prompt: "Provision.", failpoint: "provision:added"},
		{name: "planner running", prompt: "Plan.\n[[mock-delay planner=400]]", ready: stepRunning(task.RolePlanner, 0)},
		{name: "refinement running", prompt: "Refine.\n[[mock-delay refinement=400]]", ready: stepRunning(task.RoleRefinement, 0)},
		{name: "developer running", prompt: "Develop.\n[[mock-delay developer=400]]", ready: stepRunning(task.RoleDeveloper, 0), short: true},
		{name: "fix round: developer round 1 running", prompt: "Fix.\n[[mock-verdicts reviewer=CHANGES_REQUESTED,APPROVE]]\n[[mock-delay developer=300]]",
			ready: stepRunning(task.RoleDeveloper, 1)},
		{name: "observer running", prompt: "Observe.\n[[mock-delay observer=400]]", opts: envOpts{observer: true}, ready: stepRunning(task.RoleObserver, 0)},
		{name: "reviewer running", prompt: "Review.\n[[mock-delay reviewer=400]]", ready: stepRunning(task.RoleReviewer, 0)},
		{name: "finishing: outcome decided, clean-up not started", prompt: "Finish.", failpoint: "finish:decided", short: true},
		{name: "leftovers save: during git add -A", prompt: "Leftovers.", opts: envOpts{slowAdd: true}, ready: gitRunning(" add -A")},
		{name: "leftovers saved, removal not started", prompt: "Leftovers.", failpoint: "finish:leftovers-saved", short: true},
		{name: "worktree removal: during git worktree remove", prompt: "Remove.\n[[mock-litter developer=20000]]", ready: gitRunning("worktree remove")},
		{name: "worktree removed, status not written", prompt: "Remove.", failpoint: "finish:removed"},
	}
}

// acceptPoint is a point of `accept` or `undo-accept` where it is killed
// (kill -9), or signalled (SIGINT, SIGTERM: its context ends).
type acceptPoint struct {
	name      string
	undo      bool
	failpoint string
	// readTree kills (or signals) it from outside while its checkout
	// update runs.
	readTree bool
	// signal, when set, is sent instead of SIGKILL: at the gate (while git
	// moves main: its reference-transaction hook holds it after the move)
	// or, with readTree, during the checkout update.
	signal syscall.Signal
	short  bool
}

func r1AcceptPoints() []acceptPoint {
	return []acceptPoint{
		{name: "accept: intent journaled, ref not moved", failpoint: "accept:intent"},
		{name: "accept: git update-ref done", failpoint: "accept:ref-moved", short: true},
		{name: "accept: during git read-tree (checkout update)", readTree: true},
		{name: "accept: checkout moved, not recorded", failpoint: "accept:checkout-moved"},
		{name: "accept: recorded, journal not cleared", failpoint: "accept:recorded"},
		{name: "undo: intent journaled", undo: true, failpoint: "undo:intent"},
		{name: "undo: git update-ref done", undo: true, failpoint: "undo:ref-moved"},
		{name: "undo: checkout moved", undo: true, failpoint: "undo:checkout-moved"},
		{name: "undo: recorded", undo: true, failpoint: "undo:recorded"},
		{name: "accept: SIGINT during git update-ref", signal: syscall.SIGINT, short: true},
		{name: "accept: SIGTERM during git update-ref", signal: syscall.SIGTERM},
		{name: "accept: SIGINT during git read-tree (checkout update)", readTree: true, signal: syscall.SIGINT},
		{name: "undo: SIGTERM during git update-ref", undo: true, signal: syscall.SIGTERM, short: true},
		{name: "undo: SIGINT during git update-ref", undo: true, signal: syscall.SIGINT},
	}
}

// r1QueuePoints are the merge queue's landings signalled while git moves
// main (queueSignalTrial).
func r1QueuePoints() []string {
	return []string{"merge queue landing: SIGTERM to the runner during git update-ref"}
}

// R1 kinds.
const (
	kStuck      = "stuck ongoing"
	kLost       = "commits lost"
	kUnreach    = "leftovers unreachable"
	kRetryFail  = "retries that fail"
	kMismatch   = "status/ref/checkout mismatches"
	kLeak       = "leaks"
	kSurvivor   = "survivors"
	kMissedKill = "kills that missed their point"
	kTrials     = "trials"
)

func TestR1KillNineThenRestart(t *testing.T) {
	full := Full()
	repeat := 1
	if full {
		repeat = 2
	}
	tl := newTally()
	var points, apoints, spoints int
	t.Run("trials", func(t *testing.T) {
		for _, p := range r1Points() {
			if !full && !p.short {
				continue
			}
			points++
			for i := 0; i < repeat; i++ {
				p := p
				t.Run(fmt.Sprintf("%s/%d", p.name, i), func(t *testing.T) {
					t.Parallel()
					runnerTrial(t, p, tl)
				})
			}
		}
		for _, p := range r1AcceptPoints() {
			if !full && !p.short {
				continue
			}
			if p.signal != 0 {
				spoints++
			} else {
				apoints++
			}
			for i := 0; i < repeat; i++ {
				p := p
				t.Run(fmt.Sprintf("%s/%d", p.name, i), func(t *testing.T) {
					t.Parallel()
					acceptTrial(t, p, tl)
				})
			}
		}
		for _, name := range r1QueuePoints() {
			spoints++
			for i := 0; i < repeat; i++ {
				name := name
				t.Run(fmt.Sprintf("%s/%d", name, i), func(t *testing.T) {
					t.Parallel()
					queueSignalTrial(newEnv(t, envOpts{}), tl, name)
				})
			}
		}
	})
	bad := tl.sum(kStuck, kLost, kUnreach, kRetryFail, kMismatch, kLeak, kSurvivor)
	fig := fmt.Sprintf("%d trials at %d runner points, %d accept/undo points (kill -9) and %d signal points (SIGINT/SIGTERM while git moves main for an accept, an undo or a queue landing, or updates the checkout): %s; verify gate: none yet (no point to kill)",
		tl.get(kTrials), points, apoints, spoints, tl.figure(kStuck, kLost, kUnreach, kRetryFail, kMismatch, kLeak, kSurvivor, kMissedKill))
	if n := tl.notesText(); n != "" {
		fig += " — " + n
	}
	row := Row{ID: "R1", Test: "kill -9 of the runner at each pipeline point and of accept/undo at each git step, and SIGINT/SIGTERM of accept, undo and the runner's queue landing while git moves the target, then restart (runner --until-idle), retry, undo or accept again",
		Figure: fig, Goal: "stuck ongoing, commits lost, leftovers unreachable, retries that fail, status/ref/checkout mismatches: all 0",
		Holds: bad == 0 && tl.get(kTrials) > 0 && tl.get(kMissedKill) == 0}
	if err := Record(row); err != nil {
		t.Fatal(err)
	}
	if !row.Holds {
		t.Errorf("R1 fails: %s", fig)
	}
}

// runnerTrial kills the runner at p, restarts it, retries what stopped and
// counts what went wrong.
func runnerTrial(t *testing.T, p killPoint, tl *tally) {
	e := newEnv(t, p.opts)
	id := e.add(p.prompt)
	tl.add(kTrials, 1, "")
	if p.failpoint != "" {
		r := e.start([]string{failpoint.EnvVar + "=" + p.failpoint}, "runner", "--until-idle")
		if !r.killedBySignal() {
			tl.add(kMissedKill, 1, p.name)
		}
	} else {
		r := e.start(nil, "runner", "--until-idle")
		if waitUntil(3*time.Minute, func() bool { return r.exited() || p.ready(e, id) }) && !r.exited() {
			r.kill()
		} else {
			r.kill()
			tl.add(kMissedKill, 1, p.name)
		}
	}
	restart := e.run(nil, "runner", "--until-idle")
	if restart.code != 0 {
		tl.add(kMismatch, 1, p.name+": restart exited "+fmt.Sprint(restart.code)+": "+firstLine(restart.stderr))
	}
	tk := e.task(id)
	if tk.Status == task.StatusOngoing {
		tl.add(kStuck, 1, p.name)
	}
	if tk.Status == task.StatusStopped || tk.Status == task.StatusFailed {
		if r := e.run(nil, "retry", id); r.code != 0 {
			tl.add(kRetryFail, 1, p.name+": retry refused: "+firstLine(r.stderr))
		}
		e.run(nil, "runner", "--until-idle")
		tk = e.task(id)
	}
	if tk.Status != task.StatusDone {
		tl.add(kRetryFail, 1, fmt.Sprintf("%s: ended %s %q", p.name, tk.Status, tk.Error))
	}
	judge(e, id, p.name, tl)
}

// judge counts lost commits, unreachable leftovers, mismatches, leaks and
// survivors of a trial.
func judge(e *env, id, where string, tl *tally) {
	if lost := e.unreachable(e.commitsWithSubject("mock: developer run")); len(lost) > 0 {
		tl.add(kLost, len(lost), where)
	}
	if un := e.unreachable(e.commitsWithSubject("Leftovers of task")); len(un) > 0 {
		tl.add(kUnreach, len(un), where)
	}
	if bad := e.runMismatches(id); len(bad) > 0 {
		tl.add(kMismatch, len(bad), where+": "+strings.Join(bad, ", "))
	}
	if l := e.leaks(); len(l) > 0 {
		tl.add(kLeak, len(l), where+": "+strings.Join(l, ", "))
	}
	if s := e.survivors(); len(s) > 0 {
		tl.add(kSurvivor, len(s), where+": "+strings.Join(s, ", "))
	}
}

// acceptTrial runs a task to done, kills `accept` (or `undo-accept` of an
// accept) at p, restarts the runner (which reconciles), checks that status,
// ref and checkout agree, then that the next undo or accept works.
func acceptTrial(t *testing.T, p acceptPoint, tl *tally) {
	e := newEnv(t, envOpts{slowAccept: p.readTree})
	id := e.add("Accept me.")
	tl.add(kTrials, 1, "")
	if r := e.run(nil, "runner", "--until-idle"); r.code != 0 || e.task(id).Status != task.StatusDone {
		t.Fatalf("setup run: %d %s %q", r.code, e.task(id).Status, e.task(id).Error)
	}
	before := e.git(e.repo, "rev-parse", "main")
	verb := "accept"
	if p.undo {
		if r := e.run(nil, "accept", id); r.code != 0 {
			t.Fatalf("setup accept: %s", r.stderr)
		}
		verb = "undo-accept"
	}
	switch {
	case p.signal != 0 && !p.readTree:
		if !e.signalAcceptAtGate(verb, id, p.signal) {
			tl.add(kMissedKill, 1, p.name)
		}
	case p.failpoint != "":
		r := e.start([]string{failpoint.EnvVar + "=" + p.failpoint}, verb, id)
		if !r.killedBySignal() {
			tl.add(kMissedKill, 1, p.name+": "+firstLine(r.out.String()))
		}
	default:
		r := e.start(nil, verb, id)
		if !waitUntil(time.Minute, func() bool { return r.exited() || e.taggedCommand("read-tree") }) || r.exited() {
			tl.add(kMissedKill, 1, p.name)
		}
		if p.signal != 0 {
			_ = r.cmd.Process.Signal(p.signal)
			<-r.done
		}
		r.kill()
	}
	if rs := e.run(nil, "runner", "--until-idle"); rs.code != 0 {
		tl.add(kMismatch, 1, p.name+": restart exited "+fmt.Sprint(rs.code))
	}
	accepted, bad := e.acceptAgreement(id, before)
	if len(bad) > 0 {
		tl.add(kMismatch, len(bad), p.name+": "+strings.Join(bad, ", "))
	}
	next := "accept"
	if accepted {
		next = "undo-accept"
	}
	if rs := e.run(nil, next, id); rs.code != 0 {
		tl.add(kRetryFail, 1, p.name+": "+next+" after the restart: "+firstLine(rs.stderr))
	} else if again, bad := e.acceptAgreement(id, before); again == accepted || len(bad) > 0 {
		tl.add(kMismatch, 1+len(bad), fmt.Sprintf("%s: after %s accepted=%v %s", p.name, next, again, strings.Join(bad, ", ")))
	}
	if _, err := e.gitErr(e.repo, "merge-base", "--is-ancestor", before, "main"); err != nil {
		tl.add(kLost, 1, p.name+": main lost its earlier commit")
	}
	judge(e, id, p.name, tl)
}

// acceptAgreement says whether the task's accept stands and what disagrees:
// accepted with main at the recorded accept, or done with main where it
// was; main's checkout clean; the journal empty.
func (e *env) acceptAgreement(id, before string) (bool, []string) {
	e.t.Helper()
	var bad []string
	main := e.git(e.repo, "rev-parse", "main")
	if h, _ := e.gitErr(e.repo, "symbolic-ref", "HEAD"); h != "refs/heads/main" {
		bad = append(bad, "HEAD is "+h)
	}
	if st := e.git(e.repo, "status", "--porcelain=v1", "--untracked-files=no"); st != "" {
		bad = append(bad, "checkout differs from main: "+strings.ReplaceAll(st, "\n", " "))
	}
	if p, err := review.NewJournal(dataroot.Paths{Root: e.data}.Journal(), "").Pending(); err != nil || len(p) > 0 {
		bad = append(bad, fmt.Sprintf("journal not reconciled: %d move(s) %v", len(p), err))
	}
	tk := e.task(id)
	switch tk.Status {
	case task.StatusAccepted:
		last, err := review.StoreRecorder{Store: e.st}.LastAccept(context.Background(), id)
		if err != nil || last.NewSHA != main || last.OldSHA != before {
			bad = append(bad, fmt.Sprintf("accepted but main %s is not the recorded accept %+v (%v)", short(main), last, err))
		}
		return true, bad
	case task.StatusDone:
		if main != before {
			bad = append(bad, fmt.Sprintf("done but main moved %s → %s", short(before), short(main)))
		}
	default:
		bad = append(bad, "status "+string(tk.Status))
	}
	return false, bad
}

func short(sha string) string {
	if len(sha) > 10 {
		return sha[:10]
	}
	return sha
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
