//go:build linux && reliability

package reliability

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/task"
)

// R7 kinds.
const (
	kChangesLost = "changes lost"
	kNoCAS       = "refs moved without compare-and-swap"
	kWrongAnswer = "refusals missing or accepts refused"
)

// acceptEnv is a done task whose work waits to be accepted into main,
// checked out (clean) in the repository.
type acceptEnv struct {
	*env
	id, file string // the task and the file its work adds
	before   string // main before anything
}

func newAcceptEnv(t *testing.T, o envOpts, tl *tally) *acceptEnv {
	tl.add(kTrials, 1, "")
	e := newEnv(t, o)
	a := &acceptEnv{env: e}
	a.id = e.add("Accept me.")
	if r := e.run(nil, "runner", "--until-idle"); r.code != 0 || e.task(a.id).Status != task.StatusDone {
		t.Fatalf("setup run: %d %s %q", r.code, e.task(a.id).Status, e.task(a.id).Error)
	}
	a.file = mock.FileName(filepath.Join(e.repo, ".boof-runner-worktrees", a.id))
	a.before = e.git(e.repo, "rev-parse", "main")
	return a
}

func (a *acceptEnv) refs() string {
	return a.git(a.repo, "for-each-ref", "--format=%(refname) %(objectname)")
}

func (a *acceptEnv) accept(extraEnv []string, strategy string) result {
	return a.run(extraEnv, "accept", a.id, "--strategy", strategy)
}

// refusal checks a refused accept: it failed, said why, and changed no
// ref, no file of the user's and not the task's status.
func (a *acceptEnv) refusal(res result, why, refs string, keep map[string]string, where string, tl *tally) {
	if res.code == 0 || !strings.Contains(res.stderr, why) {
		tl.add(kWrongAnswer, 1, fmt.Sprintf("%s: exit %d, %q", where, res.code, firstLine(res.stderr)))
	}
	if got := a.refs(); got != refs {
		tl.add(kNoCAS, 1, where+": a refused accept moved a ref")
	}
	a.kept(keep, where, tl)
	if st := a.task(a.id).Status; st != task.StatusDone {
		tl.add(kWrongAnswer, 1, where+": status "+string(st))
	}
}

// kept counts the user's files (path → content, "" for "must not exist")
// that no longer hold what the user left.
func (a *acceptEnv) kept(keep map[string]string, where string, tl *tally) {
	for rel, want := range keep {
		b, err := os.ReadFile(filepath.Join(a.repo, rel))
		if err != nil || string(b) != want {
			tl.add(kChangesLost, 1, fmt.Sprintf("%s: %s holds %q (%v)", where, rel, b, err))
		}
	}
}

type r7Scenario struct {
	name  string
	short bool
	run   func(t *testing.T, strategy string, tl *tally)
}

func r7Scenarios() []r7Scenario {
	return []r7Scenario{
		{name: "dirty checkout", short: true, run: func(t *testing.T, strategy string, tl *tally) {
			a := newAcceptEnv(t, envOpts{}, tl)
			a.write("README.md", "the user's unsaved edit\n")
			refs := a.refs()
			a.refusal(a.accept(nil, strategy), "uncommitted changes", refs, map[string]string{"README.md": "the user's unsaved edit\n"}, "dirty checkout "+strategy, tl)
		}},
		{name: "untracked file in the way", run: func(t *testing.T, strategy string, tl *tally) {
			a := newAcceptEnv(t, envOpts{}, tl)
			a.write(a.file, "the user's own file\n")
			refs := a.refs()
			a.refusal(a.accept(nil, strategy), "uncommitted changes", refs, map[string]string{a.file: "the user's own file\n"}, "untracked file "+strategy, tl)
		}},
		{name: "conflict", short: true, run: func(t *testing.T, strategy string, tl *tally) {
			a := newAcceptEnv(t, envOpts{}, tl)
			a.write(a.file, "main's own version\n")
			a.git(a.repo, "add", "-A")
			a.git(a.repo, "commit", "-q", "-m", "main adds the same file")
			refs := a.refs()
			a.refusal(a.accept(nil, strategy), "conflict", refs, map[string]string{a.file: "main's own version\n"}, "conflict "+strategy, tl)
		}},
		{name: "target moved meanwhile (checked out)", short: true, run: func(t *testing.T, strategy string, tl *tally) {
			movedMeanwhile(t, strategy, true, tl)
		}},
		{name: "target moved meanwhile (checked out nowhere)", run: func(t *testing.T, strategy string, tl *tally) {
			movedMeanwhile(t, strategy, false, tl)
		}},
		{name: "crash at each step, the user working meanwhile", short: true, run: crashWithUserWork},
	}
}

// movedMeanwhile pauses an accept after it built its commit, lets the user
// commit on main, and checks that the accept refuses and the user's
// commit stays.
func movedMeanwhile(t *testing.T, strategy string, checkedOut bool, tl *tally) {
	a := newAcceptEnv(t, envOpts{}, tl)
	where := fmt.Sprintf("target moved (checked out %v) %s", checkedOut, strategy)
	if !checkedOut {
		a.git(a.repo, "switch", "-q", "--detach", "main")
	}
	pause := filepath.Join(a.tmp, "pause")
	r := a.start([]string{failpoint.EnvVar + "=" + "accept:built=pause:" + pause}, "accept", a.id, "--strategy", strategy, "--target", "main")
	if !waitUntil(time.Minute, func() bool { _, err := os.Stat(pause); return err == nil || r.exited() }) || r.exited() {
		tl.add(kWrongAnswer, 1, where+": the accept never paused: "+firstLine(r.out.String()))
		return
	}
	var user string
	if checkedOut {
		a.write("user.txt", "the user's commit\n")
		a.git(a.repo, "add", "user.txt")
		a.git(a.repo, "commit", "-q", "-m", "the user commits meanwhile")
		user = a.git(a.repo, "rev-parse", "main")
	} else {
		tree := a.git(a.repo, "rev-parse", "main^{tree}")
		user = a.git(a.repo, "commit-tree", tree, "-p", "main", "-m", "the user moves main meanwhile")
		a.git(a.repo, "update-ref", "refs/heads/main", user)
	}
	os.Remove(pause)
	<-r.done
	if r.cmd.ProcessState.ExitCode() == 0 || !strings.Contains(r.out.String(), "moved meanwhile") {
		tl.add(kWrongAnswer, 1, where+": "+firstLine(r.out.String()))
	}
	if got := a.git(a.repo, "rev-parse", "main"); got != user {
		tl.add(kNoCAS, 1, where+": main is "+short(got)+", not the user's commit")
	}
	if checkedOut {
		a.kept(map[string]string{"user.txt": "the user's commit\n"}, where, tl)
		if st := a.git(a.repo, "status", "--porcelain=v1", "--untracked-files=no"); st != "" {
			tl.add(kChangesLost, 1, where+": checkout left dirty: "+st)
		}
	}
	// Accepting again, on top of the user's commit, keeps it.
	if checkedOut {
		if res := a.accept(nil, strategy); res.code != 0 {
			tl.add(kWrongAnswer, 1, where+": the second accept: "+firstLine(res.stderr))
		} else if _, err := a.gitErr(a.repo, "merge-base", "--is-ancestor", user, "main"); err != nil {
			tl.add(kChangesLost, 1, where+": the user's commit is not on main after the accept")
		}
	}
}

// crashWithUserWork kills accept (kill -9) or signals it (SIGINT,
// SIGTERM) at each step while the user has work in the checkout, lets the
// user go on working, restarts, and checks that the user's work is all
// there and status, ref and checkout agree.
func crashWithUserWork(t *testing.T, strategy string, tl *tally) {
	points := []string{"accept:intent", "accept:ref-moved", "accept:checkout-moved", "accept:recorded", "read-tree",
		"SIGINT at update-ref", "SIGTERM at update-ref", "SIGTERM at read-tree"}
	short := map[string]bool{"accept:ref-moved": true, "read-tree": true, "SIGINT at update-ref": true}
	for _, point := range points {
		if !Full() && !short[point] {
			continue
		}
		t.Run(point, func(t *testing.T) {
			a := newAcceptEnv(t, envOpts{slowAccept: strings.HasSuffix(point, "read-tree")}, tl)
			where := "crash at " + point + " " + strategy
			// The user's untracked notes are there before the accept.
			a.write("notes.txt", "the user's notes\n")
			var r *running
			sig := map[string]syscall.Signal{"SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM}[strings.Fields(point)[0]]
			switch {
			case strings.HasSuffix(point, "update-ref"):
				g := a.installGate()
				if err := g.arm(); err != nil {
					t.Fatal(err)
				}
				if !interruptAtGate(g, a.start(nil, "accept", a.id, "--strategy", strategy), sig) {
					tl.add(kWrongAnswer, 1, where+": missed the update-ref")
				}
			case strings.HasSuffix(point, "read-tree"):
				r = a.start(nil, "accept", a.id, "--strategy", strategy)
				if !waitUntil(time.Minute, func() bool { return r.exited() || a.taggedCommand("read-tree") }) || r.exited() {
					tl.add(kWrongAnswer, 1, where+": missed the read-tree")
				}
				if sig != 0 {
					_ = r.cmd.Process.Signal(sig)
					<-r.done
				}
				r.kill()
			default:
				r = a.start([]string{failpoint.EnvVar + "=" + point}, "accept", a.id, "--strategy", strategy)
				if !r.killedBySignal() {
					tl.add(kWrongAnswer, 1, where+": not killed: "+firstLine(r.out.String()))
				}
			}
			// The user goes on working before anything restarts.
			a.write("later.txt", "written after the crash\n")
			if res := a.run(nil, "runner", "--until-idle"); res.code != 0 {
				tl.add(kWrongAnswer, 1, where+": restart exited "+fmt.Sprint(res.code))
			}
			a.kept(map[string]string{"notes.txt": "the user's notes\n", "later.txt": "written after the crash\n"}, where, tl)
			accepted, bad := a.acceptAgreement(a.id, a.before)
			if len(bad) > 0 {
				tl.add(kWrongAnswer, len(bad), where+": "+strings.Join(bad, ", "))
			}
			if _, err := a.gitErr(a.repo, "merge-base", "--is-ancestor", a.before, "main"); err != nil {
				tl.add(kChangesLost, 1, where+": main lost its earlier commit")
			}
			if accepted {
				if res := a.run(nil, "undo-accept", a.id); res.code != 0 {
					tl.add(kWrongAnswer, 1, where+": undo after the restart: "+firstLine(res.stderr))
				}
				a.kept(map[string]string{"notes.txt": "the user's notes\n", "later.txt": "written after the crash\n"}, where+" after undo", tl)
			}
		})
	}
}

func TestR7AcceptSafety(t *testing.T) {
	full := Full()
	strategies := []string{"merge"}
	if full {
		strategies = []string{"merge", "squash", "rebase"}
	}
	tl := newTally()
	t.Run("scenarios", func(t *testing.T) {
		for _, sc := range r7Scenarios() {
			if !full && !sc.short {
				continue
			}
			for _, st := range strategies {
				sc, st := sc, st
				t.Run(sc.name+"/"+st, func(t *testing.T) {
					t.Parallel()
					sc.run(t, st, tl)
				})
			}
		}
	})
	n := tl.get(kTrials)
	fig := fmt.Sprintf("%d trials (%s; strategies %s): %s", n,
		"dirty checkout, untracked file in the way, conflict, target moved meanwhile checked out or not, kill -9 and SIGINT/SIGTERM at each step with the user working",
		strings.Join(strategies, ", "), tl.figure(kChangesLost, kNoCAS, kWrongAnswer))
	if notes := tl.notesText(); notes != "" {
		fig += " — " + notes
	}
	row := Row{ID: "R7", Test: "accept safety: refusals leave everything as it was, a concurrent move of the target is never overwritten, a crash or a signal at each step loses nothing of the user's",
		Figure: fig, Goal: "changes lost, refs moved without compare-and-swap: 0", Holds: n > 0 && tl.sum(kChangesLost, kNoCAS, kWrongAnswer) == 0}
	if err := Record(row); err != nil {
		t.Fatal(err)
	}
	if !row.Holds {
		t.Errorf("R7 fails: %s", fig)
	}
}
