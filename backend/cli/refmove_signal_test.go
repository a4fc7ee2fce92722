package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// A signal that arrives while git moves the target branch of an accept,
// an undo or a merge queue landing: the commands are the real binary, the
// signal is sent from outside, and the moment is held by the repository's
// own reference-transaction hook, which waits once main has moved (git's
// "committed" state) until the test lets it go.

// interruptedNotice is what the commands say when a signal arrives during
// a move of main (the move is finished first).
const interruptedNotice = "interrupted while main moves"

// refGate is a reference-transaction hook of a repository that, once
// armed, holds the next move of a ref after it is made.
type refGate struct{ dir string }

// installRefGate installs the gate of ref (a full ref name) in repo.
func installRefGate(t *testing.T, repo, ref string) *refGate {
	t.Helper()
	g := &refGate{dir: t.TempDir()}
	hook := `#!/bin/sh
[ "$1" = committed ] || exit 0
awk '$3 == "` + ref + `" { f = 1 } END { exit !f }' || exit 0
mv "` + g.dir + `/armed" "` + g.dir + `/reached" 2>/dev/null || exit 0
i=0
while [ -e "` + g.dir + `/reached" ] && [ $i -lt 6000 ]; do sleep 0.05; i=$((i+1)); done
`
	writeFile(t, filepath.Join(repo, ".git", "hooks", "reference-transaction"), hook)
	if err := os.Chmod(filepath.Join(repo, ".git", "hooks", "reference-transaction"), 0o755); err != nil {
		t.Fatal(err)
	}
	return g
}

func (g *refGate) arm(t *testing.T) { writeFile(t, filepath.Join(g.dir, "armed"), "") }

func (g *refGate) reached() bool {
	_, err := os.Stat(filepath.Join(g.dir, "reached"))
	return err == nil
}

func (g *refGate) release() { os.Remove(filepath.Join(g.dir, "reached")) }

// lockedBuffer is a bytes.Buffer the test may read while the process writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// started is the binary running in the background.
type started struct {
	cmd         *exec.Cmd
	out, errout lockedBuffer
	done        chan struct{}
}

func startBinary(t *testing.T, data string, args ...string) *started {
	t.Helper()
	p := &started{cmd: exec.Command(binary, append(args, "--data-dir", data)...), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), "BOOF_RUNNER_HOME=")
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.errout
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		if !p.exited() {
			_ = p.cmd.Process.Kill()
		}
		<-p.done
	})
	return p
}

func (p *started) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// waitFor polls cond until it holds; the bound only keeps a broken run
// from hanging.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	limit := time.Now().Add(3 * time.Minute)
	for !cond() {
		if time.Now().After(limit) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// interruptMove signals p once the gate holds main moved, waits until p
// took the signal in (it says the move is finished first, or it ended),
// then lets git go on and waits for p's end.
func interruptMove(t *testing.T, p *started, gate *refGate, sig syscall.Signal, notice func() string) result {
	t.Helper()
	waitFor(t, "the ref move", func() bool { return gate.reached() || p.exited() })
	if !gate.reached() {
		t.Fatalf("the command ended before the ref moved: %s%s", p.out.String(), p.errout.String())
	}
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the signal to be taken in", func() bool { return strings.Contains(notice(), "interrupted while") || p.exited() })
	gate.release()
	<-p.done
	return result{code: p.cmd.ProcessState.ExitCode(), stdout: p.out.String(), stderr: p.errout.String()}
}

// checkoutClean fails the test when main's checkout differs from main.
func checkoutClean(t *testing.T, repo, when string) {
	t.Helper()
	if st := git(t, repo, "status", "--porcelain=v1", "--untracked-files=no"); st != "" {
		t.Fatalf("%s: the checkout of main differs from main:\n%s", when, st)
	}
}

// restart runs the runner once over the data root, as the next start does.
func restart(t *testing.T, data, repo string) result {
	t.Helper()
	if r := runCLI(t, data, "", "settings", "set", "workingDirectory", repo); r.code != 0 {
		t.Fatalf("settings: %s", r.stderr)
	}
	r := runCLI(t, data, "", "runner", "--until-idle")
	if r.code != 0 {
		t.Fatalf("restart: %d %s%s", r.code, r.stdout, r.stderr)
	}
	return r
}

// TestSignalDuringAcceptMoveFinishesTheAccept: Ctrl-C (or SIGTERM) while
// git moves main for `accept` does not leave main moved with the task not
// accepted: the accept is finished and recorded, the checkout follows,
// and after a restart the task is accepted and can be undone.
func TestSignalDuringAcceptMoveFinishesTheAccept(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			data, repo, id, mainHead := reviewSetup(t)
			gate := installRefGate(t, repo, "refs/heads/main")
			gate.arm(t)
			p := startBinary(t, data, "accept", id)
			r := interruptMove(t, p, gate, sig, p.errout.String)
			if r.code != 0 || !strings.Contains(r.stdout, "accepted "+id+" into main") || !strings.Contains(r.stderr, interruptedNotice) {
				t.Fatalf("interrupted accept: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			accepted := git(t, repo, "rev-parse", "main")
			restart(t, data, repo)
			if got := statusOf(t, data, id); got != "accepted" {
				t.Fatalf("after the restart the task is %s, main is %s", got, accepted)
			}
			if git(t, repo, "rev-parse", "main") != accepted || git(t, repo, "rev-parse", "main^1") != mainHead {
				t.Fatal("main is not the accept on top of where it was")
			}
			checkoutClean(t, repo, "after the restart")
			if b, err := os.ReadFile(filepath.Join(repo, "c d.txt")); err != nil || string(b) != "sea\n" {
				t.Fatalf("the task's file in the checkout: %q %v", b, err)
			}
			if r := runCLI(t, data, "", "accept", id); r.code != 1 || r.stderr != "boof-runner: This task is already accepted.\n" {
				t.Fatalf("accept again: %d %s", r.code, r.stderr)
			}
			if r := runCLI(t, data, "", "undo-accept", id); r.code != 0 {
				t.Fatalf("undo: %d %s", r.code, r.stderr)
			}
			if git(t, repo, "rev-parse", "main") != mainHead || statusOf(t, data, id) != "done" {
				t.Fatal("the undo did not put main back")
			}
			checkoutClean(t, repo, "after the undo")
		})
	}
}

// TestSignalDuringUndoMoveFinishesTheUndo: SIGTERM while git moves main
// back for `undo-accept`: the undo is finished and recorded; after a
// restart the task is done, main is where it was, and it can be accepted
// again.
func TestSignalDuringUndoMoveFinishesTheUndo(t *testing.T) {
	data, repo, id, mainHead := reviewSetup(t)
	if r := runCLI(t, data, "", "accept", id); r.code != 0 {
		t.Fatalf("accept: %d %s", r.code, r.stderr)
	}
	gate := installRefGate(t, repo, "refs/heads/main")
	gate.arm(t)
	p := startBinary(t, data, "undo-accept", id)
	r := interruptMove(t, p, gate, syscall.SIGTERM, p.errout.String)
	if r.code != 0 || !strings.Contains(r.stdout, "undid the accept of "+id) || !strings.Contains(r.stderr, interruptedNotice) {
		t.Fatalf("interrupted undo: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	restart(t, data, repo)
	if got := statusOf(t, data, id); got != "done" || git(t, repo, "rev-parse", "main") != mainHead {
		t.Fatalf("after the restart the task is %s and main %s (want done at %s)", got, git(t, repo, "rev-parse", "main"), mainHead)
	}
	checkoutClean(t, repo, "after the restart")
	if r := runCLI(t, data, "", "undo-accept", id); r.code != 1 || !strings.Contains(r.stderr, "no accept to undo") {
		t.Fatalf("undo again: %d %s", r.code, r.stderr)
	}
	if r := runCLI(t, data, "", "accept", id); r.code != 0 || statusOf(t, data, id) != "accepted" {
		t.Fatalf("accept again: %d %s", r.code, r.stderr)
	}
	checkoutClean(t, repo, "after accepting again")
}

// TestSignalDuringQueueLandingLandsIt: SIGTERM to the runner while git
// moves main for a merge queue landing: the entry lands (task accepted,
// checkout moved), and the restarted runner lands the next entry on it.
func TestSignalDuringQueueLandingLandsIt(t *testing.T) {
	data, repo, ids := queueSetup(t)
	if r := runCLI(t, data, "", append([]string{"queue", "add"}, append(ids, "--target", "main")...)...); r.code != 0 {
		t.Fatalf("queue add: %d %s", r.code, r.stderr)
	}
	if r := runCLI(t, data, "", "settings", "set", "workingDirectory", repo); r.code != 0 {
		t.Fatalf("settings: %s", r.stderr)
	}
	gate := installRefGate(t, repo, "refs/heads/main")
	gate.arm(t)
	p := startBinary(t, data, "runner", "--until-idle")
	r := interruptMove(t, p, gate, syscall.SIGTERM, p.out.String)
	if !strings.Contains(r.stdout, ids[0]+" warn  "+interruptedNotice) {
		t.Fatalf("the runner did not say it finishes the landing first:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
	}
	restart(t, data, repo)
	out := runCLI(t, data, "", "queue", "list", "--all", "--json")
	var es []struct {
		TaskID string `json:"task_id"`
		State  string `json:"state"`
		Reason string `json:"reason"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &es); err != nil || len(es) != 2 {
		t.Fatalf("queue list: %v %s", err, out.stdout)
	}
	for _, e := range es {
		if e.State != "landed" {
			t.Errorf("entry of %s is %s (%s), want landed", e.TaskID, e.State, e.Reason)
		}
	}
	for _, id := range ids {
		if got := statusOf(t, data, id); got != "accepted" {
			t.Errorf("task %s is %s, want accepted", id, got)
		}
		if _, err := exec.Command("git", "-C", repo, "merge-base", "--is-ancestor", "boof-runner/"+id, "main").CombinedOutput(); err != nil {
			t.Errorf("main does not hold the work of %s", id)
		}
	}
	checkoutClean(t, repo, "after the restart")
	for _, f := range []string{"one.txt", "two.txt"} {
		if _, err := os.Stat(filepath.Join(repo, f)); err != nil {
			t.Errorf("the checkout lacks %s: %v", f, err)
		}
	}
}

// TestSignalDuringRejectDeletionFinishesTheReject: Ctrl-C while git
// deletes the task branch for `reject --delete-branches` does not leave
// the branch gone with the task not rejected: the reject is finished.
func TestSignalDuringRejectDeletionFinishesTheReject(t *testing.T) {
	data, repo, id, _ := reviewSetup(t)
	branch := git(t, repo, "rev-parse", "boof-runner/"+id)
	gate := installRefGate(t, repo, "refs/heads/boof-runner/"+id)
	gate.arm(t)
	p := startBinary(t, data, "reject", id, "--delete-branches", "--yes")
	r := interruptMove(t, p, gate, syscall.SIGINT, p.errout.String)
	if r.code != 0 || !strings.Contains(r.stdout, "deleted branch boof-runner/"+id+" (was "+branch+")") ||
		!strings.Contains(r.stderr, "interrupted while the task's branches are deleted") {
		t.Fatalf("interrupted reject: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if got := statusOf(t, data, id); got != "rejected" {
		t.Fatalf("the branch was deleted, but the task is %s", got)
	}
	if refs := git(t, repo, "for-each-ref", "refs/heads/boof-runner/"); refs != "" {
		t.Fatalf("branches left: %s", refs)
	}
}

// queueSetup makes a repository on main and two finished tasks whose
// branches add one.txt and two.txt.
func queueSetup(t *testing.T) (data, repo string, ids []string) {
	t.Helper()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	repo = t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	writeFile(t, filepath.Join(repo, "a.txt"), "one\n")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-qm", "first")
	base := git(t, repo, "rev-parse", "HEAD")
	data = filepath.Join(t.TempDir(), "data")
	if err := dataroot.Ensure(data); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, dataroot.Paths{Root: data}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, f := range []string{"one.txt", "two.txt"} {
		tk, err := st.CreateTask(ctx, task.NewTask{Title: "Add " + f, Prompt: "add " + f, Repo: repo})
		if err != nil {
			t.Fatal(err)
		}
		git(t, repo, "branch", "boof-runner/"+tk.ID, base)
		wt := filepath.Join(t.TempDir(), tk.ID)
		git(t, repo, "worktree", "add", "-q", wt, "boof-runner/"+tk.ID)
		writeFile(t, filepath.Join(wt, f), f+"\n")
		git(t, wt, "add", "-A")
		git(t, wt, "commit", "-qm", "add "+f)
		git(t, repo, "worktree", "remove", wt)
		if _, err := st.Claim(ctx, tk.ID, store.ClaimInfo{Role: task.RoleDeveloper, Tool: "mock"}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Transition(ctx, tk.ID, task.StatusDone, store.TransitionNote{BaseSHA: base, Branch: "boof-runner/" + tk.ID}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tk.ID)
	}
	return data, repo, ids
}
