package mergequeue

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/boof-runner/boof-runner/backend/failpoint"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// An entry queued again while its move stayed in the journal (a landing
// interrupted when the outcome of its move could not be read back, or
// requeued by an older version after a signal) is found landed once the
// journal settles the move: it is neither built afresh on a target that
// already holds it ("nothing to land") nor parked.
func TestRequeuedEntryWhoseMoveSettlesIsLanded(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tk := f.doneTask("Land me", map[string]string{"l.txt": "l\n"})
	f.add(tk.ID)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"=1", "MQ_DB="+f.db, "MQ_JOURNAL="+f.journal, "MQ_WORK="+f.work,
		failpoint.EnvVar+"=accept:ref-moved")
	err := cmd.Run()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("the pass was not killed after main moved: %v", err)
	}
	f.open()
	e := f.entry(tk.ID)
	if e.State != task.QueueLanding || e.Built == "" || sh(t, f.repo, "rev-parse", "main") != e.Built {
		t.Fatalf("after the kill: entry %+v, main %s", e, sh(t, f.repo, "rev-parse", "main"))
	}
	if _, err := f.st.ChangeQueueEntry(context.Background(), e.ID, store.EntryChange{From: []task.QueueState{task.QueueLanding},
		To: task.QueueQueued, Reason: ptr("interrupted")}); err != nil {
		t.Fatal(err)
	}
	f.pass()
	e = f.entry(tk.ID)
	if e.State != task.QueueLanded || e.Landed != e.Built {
		t.Fatalf("entry %+v, want landed on %s", e, e.Built)
	}
	if got := f.get(tk.ID).Status; got != task.StatusAccepted {
		t.Fatalf("task %s", got)
	}
	if st := sh(t, f.repo, "status", "--porcelain=v1", "--untracked-files=no"); st != "" {
		t.Fatalf("the checkout of main differs from main:\n%s", st)
	}
	if got := f.subjects(); got != "Merge boof-runner/"+tk.ID+": Land me\ninit" {
		t.Fatalf("main's history:\n%s", got)
	}
}
