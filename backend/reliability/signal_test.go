//go:build linux && reliability

package reliability

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Signals (SIGINT, SIGTERM) that arrive while git moves main: the moment
// is held by the repository's own reference-transaction hook, which, when
// armed, waits after main moved (git's "committed" state) until released.
// The app is signalled there, and the hook let go once the app took the
// signal in (it says so: "interrupted while ...", or it ended).

// syncBuffer is a bytes.Buffer that may be read while a process writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// gate is the armed-once hold of main's next move.
type gate struct{ dir string }

// installGate puts the hook in the trial's repository.
func (e *env) installGate() *gate {
	e.t.Helper()
	g := &gate{dir: filepath.Join(e.home, "gate")}
	if err := os.MkdirAll(g.dir, 0o755); err != nil {
		e.t.Fatal(err)
	}
	hook := `#!/bin/sh
[ "$1" = committed ] || exit 0
awk '$3 == "refs/heads/main" { f = 1 } END { exit !f }' || exit 0
mv "` + g.dir + `/armed" "` + g.dir + `/reached" 2>/dev/null || exit 0
i=0
while [ -e "` + g.dir + `/reached" ] && [ $i -lt 6000 ]; do sleep 0.05; i=$((i+1)); done
`
	if err := os.WriteFile(filepath.Join(e.repo, ".git", "hooks", "reference-transaction"), []byte(hook), 0o755); err != nil {
		e.t.Fatal(err)
	}
	return g
}

func (g *gate) arm() error { return os.WriteFile(filepath.Join(g.dir, "armed"), nil, 0o644) }

func (g *gate) reached() bool {
	_, err := os.Stat(filepath.Join(g.dir, "reached"))
	return err == nil
}

func (g *gate) release() { os.Remove(filepath.Join(g.dir, "reached")) }

// interruptAtGate signals r once the gate holds main moved, waits until r
// took the signal in, lets git go on and waits for r's end. It reports
// whether the gate was reached (false: r ended first, or never got there).
func interruptAtGate(g *gate, r *running, sig syscall.Signal) bool {
	if !waitUntil(3*time.Minute, func() bool { return g.reached() || r.exited() }) || !g.reached() {
		r.kill()
		return false
	}
	_ = r.cmd.Process.Signal(sig)
	waitUntil(3*time.Minute, func() bool { return strings.Contains(r.out.String(), "interrupted while") || r.exited() })
	g.release()
	<-r.done
	return true
}

// signalAcceptAtGate runs verb (accept or undo-accept) of id with the gate
// armed and signals it there; it reports whether the signal hit its point.
func (e *env) signalAcceptAtGate(verb, id string, sig syscall.Signal) bool {
	g := e.installGate()
	if err := g.arm(); err != nil {
		e.t.Fatal(err)
	}
	r := e.start(nil, verb, id)
	return interruptAtGate(g, r, sig)
}

// queueSignalTrial queues two finished tasks, signals the runner (SIGTERM)
// while git moves main for the first landing, restarts it, and counts
// what went wrong: entries not landed, tasks not accepted, main's checkout
// or the journal left unsettled, lost work.
func queueSignalTrial(e *env, tl *tally, name string) {
	ids := []string{e.add("Land me first."), e.add("Land me second.")}
	tl.add(kTrials, 1, "")
	if r := e.run(nil, "runner", "--until-idle"); r.code != 0 {
		e.t.Fatalf("setup run: %d %s", r.code, r.stderr)
	}
	for _, id := range ids {
		if st := e.task(id).Status; st != task.StatusDone {
			e.t.Fatalf("setup: task %s is %s", id, st)
		}
	}
	if r := e.run(nil, append([]string{"queue", "add"}, append(ids, "--target", "main")...)...); r.code != 0 {
		e.t.Fatalf("queue add: %s", r.stderr)
	}
	g := e.installGate()
	if err := g.arm(); err != nil {
		e.t.Fatal(err)
	}
	if !interruptAtGate(g, e.start(nil, "runner", "--until-idle"), syscall.SIGTERM) {
		tl.add(kMissedKill, 1, name)
	}
	if r := e.run(nil, "runner", "--until-idle"); r.code != 0 {
		tl.add(kMismatch, 1, name+": restart exited "+fmt.Sprint(r.code))
	}
	es, err := e.st.QueueEntries(context.Background(), true)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, q := range es {
		if q.State != task.QueueLanded {
			tl.add(kMismatch, 1, fmt.Sprintf("%s: entry of %s is %s (%s)", name, q.TaskID, q.State, q.Reason))
		}
	}
	for _, id := range ids {
		if st := e.task(id).Status; st != task.StatusAccepted {
			tl.add(kMismatch, 1, fmt.Sprintf("%s: task %s is %s", name, id, st))
		}
	}
	if bad := e.settled(); len(bad) > 0 {
		tl.add(kMismatch, len(bad), name+": "+strings.Join(bad, ", "))
	}
	for _, id := range ids {
		judge(e, id, name, tl)
	}
}

// settled lists what disagrees with a settled main: HEAD on main, its
// checkout clean, no move left in the journal.
func (e *env) settled() []string {
	var bad []string
	if h, _ := e.gitErr(e.repo, "symbolic-ref", "HEAD"); h != "refs/heads/main" {
		bad = append(bad, "HEAD is "+h)
	}
	if st := e.git(e.repo, "status", "--porcelain=v1", "--untracked-files=no"); st != "" {
		bad = append(bad, "checkout differs from main: "+strings.ReplaceAll(st, "\n", " "))
	}
	if p, err := review.NewJournal(dataroot.Paths{Root: e.data}.Journal(), "").Pending(); err != nil || len(p) > 0 {
		bad = append(bad, fmt.Sprintf("journal not reconciled: %d move(s) %v", len(p), err))
	}
	return bad
}
