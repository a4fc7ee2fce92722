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

	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// hostileTree is a process tree that resists being stopped.
type hostileTree struct {
	name   string
	prompt func(full bool) string
	opts   envOpts
	// ready says the tree is fully up (or, for the flood, flooding).
	ready func(e *env, id string) bool
}

func hostileTrees() []hostileTree {
	return []hostileTree{
		{name: "SIGTERM-ignorer + setsid escapee + double-fork daemon + fork storm + early PTY close",
			prompt: func(bool) string {
				return "Resist.\n[[mock-hostile developer=sigterm,setsid,daemon,storm,ptyclose]]"
			},
			ready: func(e *env, id string) bool { return len(e.hostilePids()) >= 150 }},
		{name: "SIGTERM-ignorer flooding output",
			prompt: func(full bool) string {
				mib := 32
				if full {
					mib = 1024
				}
				return fmt.Sprintf("Flood.\n[[mock-hostile developer=sigterm,flood]]\n[[mock-flood developer=%d]]", mib)
			},
			ready: func(e *env, id string) bool {
				fi, err := os.Stat(filepath.Join(e.data, "transcripts", id, "i1-developer-a1.log"))
				return err == nil && fi.Size() > 8<<20
			}},
		{name: "our own git: a post-checkout hook that hangs and leaves a setsid daemon",
			prompt: func(bool) string { return "Hook." },
			opts:   envOpts{hook: "setsid sleep 300 >/dev/null 2>&1 &\nexec sleep 300"},
			ready: func(e *env, id string) bool {
				ps, _ := proc.FindTagged(proc.TagPrefix(e.scope, proc.OwnerRun))
				n := 0
				for _, p := range ps {
					if strings.Contains(p.Command, "sleep 300") {
						n++
					}
				}
				return n >= 2
			}},
	}
}

// Ways a hostile tree is ended.
const (
	endStop     = "after stop"
	endQuit     = "after quit (SIGTERM to the runner)"
	endKillNine = "after kill -9 + restart"
)

const (
	kHangs = "hangs"
)

func TestR2HostileTreesLeaveNoSurvivors(t *testing.T) {
	full := Full()
	short := map[string]bool{"0" + endStop: true, "0" + endKillNine: true, "1" + endQuit: true, "2" + endStop: true}
	tl := newTally()
	t.Run("trials", func(t *testing.T) {
		for i, tree := range hostileTrees() {
			for _, end := range []string{endStop, endQuit, endKillNine} {
				if !full && !short[fmt.Sprint(i)+end] {
					continue
				}
				tree, end := tree, end
				t.Run(tree.name+"/"+end, func(t *testing.T) {
					t.Parallel()
					hostileTrial(t, tree, end, full, tl)
				})
			}
		}
	})
	fig := fmt.Sprintf("%d trials (%s): %s", tl.get(kTrials), "trees × stop, quit, kill -9 + restart",
		tl.figure(kSurvivor, kHangs, kMissedKill))
	if n := tl.notesText(); n != "" {
		fig += " — " + n
	}
	row := Row{ID: "R2", Test: "hostile trees (SIGTERM-ignorer, setsid escapee, double-fork daemon, fork storm of 150, " + floodSize(full) +
		" flood ended while it floods, early PTY close) and our own git children (a hanging post-checkout hook with a setsid daemon), ended by stop, quit, kill -9 + restart",
		Figure: fig, Goal: "survivors 0", Holds: tl.get(kTrials) > 0 && tl.sum(kSurvivor, kHangs, kMissedKill) == 0}
	if err := Record(row); err != nil {
		t.Fatal(err)
	}
	if !row.Holds {
		t.Errorf("R2 fails: %s", fig)
	}
}

func floodSize(full bool) string {
	if full {
		return "1 GiB"
	}
	return "32 MiB (1 GiB in the full run)"
}

// The flood is ended once its transcript passed 8 MiB, while it floods.

// hostileTrial runs a hostile tree, ends it one way and counts the
// processes of the data root still alive.
func hostileTrial(t *testing.T, tree hostileTree, end string, full bool, tl *tally) {
	e := newEnv(t, tree.opts)
	id := e.add(tree.prompt(full))
	where := tree.name + " " + end
	tl.add(kTrials, 1, "")
	r := e.start(nil, "runner")
	if !waitUntil(3*time.Minute, func() bool { return r.exited() || tree.ready(e, id) }) || r.exited() {
		tl.add(kMissedKill, 1, where+": the tree never came up: "+firstLine(r.out.String()))
		return
	}
	var left []string
	switch end {
	case endStop:
		if res := e.run(nil, "stop", id); res.code != 0 {
			tl.add(kHangs, 1, where+": stop refused: "+firstLine(res.stderr))
		}
		if !waitUntil(2*time.Minute, func() bool { return e.task(id).Status != task.StatusOngoing }) {
			tl.add(kHangs, 1, where+": the task is still ongoing")
		}
		// The runner goes on; what is left of the stopped task's tree?
		ps, _ := proc.FindTagged(proc.StepTag(e.scope, proc.OwnerRun, id, ""))
		for _, p := range ps {
			left = append(left, fmt.Sprintf("%d %s", p.PID, p.Command))
		}
		left = append(left, e.hostileLeft()...)
		if !r.signal(syscall.SIGTERM, time.Minute) {
			tl.add(kHangs, 1, where+": the runner did not quit")
		}
	case endQuit:
		if !r.signal(syscall.SIGTERM, 2*time.Minute) {
			tl.add(kHangs, 1, where+": the runner did not quit within 2 minutes")
		}
		left = e.survivors()
	case endKillNine:
		r.kill()
		if res := e.run(nil, "runner", "--until-idle"); res.code != 0 {
			tl.add(kHangs, 1, where+": restart exited "+fmt.Sprint(res.code))
		}
		left = e.survivors()
	}
	if len(left) > 0 {
		tl.add(kSurvivor, len(left), where+": "+strings.Join(first(left, 5), ", "))
	}
}

// hostileLeft lists the processes the mock recorded that still run.
func (e *env) hostileLeft() []string {
	var out []string
	for pid, start := range e.hostilePids() {
		if got, ok := proc.StartTimes(pid)[pid]; ok && got == start {
			out = append(out, fmt.Sprintf("%d (recorded by the mock)", pid))
		}
	}
	return out
}

func first(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("… %d more", len(s)-n))
	}
	return s
}
