package review

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// doneTask opens a real store and makes a task that ran and finished.
func doneTask(t *testing.T, repo string) (*store.Store, task.Task) {
	t.Helper()
	st, err := store.Open(ctx(t), filepath.Join(t.TempDir(), "boof.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tk, err := st.CreateTask(ctx(t), task.NewTask{Title: "Shout", Prompt: "shout one", Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Claim(ctx(t), tk.ID, store.ClaimInfo{Role: task.RoleDeveloper, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	if tk, err = st.Transition(ctx(t), tk.ID, task.StatusDone, store.TransitionNote{}); err != nil {
		t.Fatal(err)
	}
	return st, tk
}

// storeFixture is newFixture with the task branch named after a stored task.
func storeFixture(t *testing.T) (fixture, *store.Store, task.Task) {
	f := newFixture(t, true)
	st, tk := doneTask(t, f.repo)
	sh(t, f.repo, "branch", "-m", TaskBranch("T1"), TaskBranch(tk.ID))
	return f, st, tk
}

func TestStoreRecorderAcceptAndUndo(t *testing.T) {
	t.Parallel()
	f, st, tk := storeFixture(t)
	rec := StoreRecorder{Store: st}
	s := newService(t)
	r := Request{Repo: f.repo, TaskID: tk.ID, Status: tk.Status, Target: "main", Strategy: StrategySquash}
	a, err := s.Accept(ctx(t), r, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := st.GetTask(ctx(t), tk.ID); got.Status != task.StatusAccepted {
		t.Fatalf("status = %s", got.Status)
	}
	last, err := rec.LastAccept(ctx(t), tk.ID)
	if err != nil || !reflect.DeepEqual(last, a) {
		t.Fatalf("last accept = %+v, %v; want %+v", last, err, a)
	}
	if err := s.Undo(ctx(t), UndoRequest{Repo: f.repo, TaskID: tk.ID, Status: task.StatusAccepted, Record: last}, rec); err != nil {
		t.Fatal(err)
	}
	if got, _ := st.GetTask(ctx(t), tk.ID); got.Status != task.StatusDone || rev(t, f.repo, "main") != f.mainHead {
		t.Fatalf("after undo: status %s, main %s", got.Status, rev(t, f.repo, "main"))
	}
	if _, err := rec.LastAccept(ctx(t), tk.ID); !errors.Is(err, ErrNoAccept) {
		t.Fatalf("last accept after undo: %v", err)
	}
	evs, err := st.Events(ctx(t), tk.ID, a.At.AddDate(0, 0, -1))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range evs {
		kinds = append(kinds, string(e.Kind()))
	}
	if k := strings.Join(kinds, ","); !strings.HasSuffix(k, "status_changed,accepted,status_changed,accept_undone") {
		t.Fatalf("events = %s", k)
	}
}

func TestStoreRecorderRefusalPutsTargetBack(t *testing.T) {
	t.Parallel()
	f, st, tk := storeFixture(t)
	if _, err := st.Transition(ctx(t), tk.ID, task.StatusPending, store.TransitionNote{}); err != nil {
		t.Fatal(err)
	}
	before := snap(t, f.repo)
	// No Status in the request: the store's state machine is what refuses.
	_, err := newService(t).Accept(ctx(t), Request{Repo: f.repo, TaskID: tk.ID, Target: "main"}, StoreRecorder{Store: st})
	if !errors.Is(err, task.ErrIllegalTransition) {
		t.Fatalf("err = %v", err)
	}
	before.same(t, f.repo)
}

func TestStoreRecorderRejectAndRequestChanges(t *testing.T) {
	t.Parallel()
	f, st, tk := storeFixture(t)
	rec := StoreRecorder{Store: st}
	q, err := newService(t).RequestChanges(ctx(t), tk, ChangeRequest{General: "rename the file"}, rec)
	if err != nil {
		t.Fatal(err)
	}
	body := q.Body
	secs, err := st.Sections(ctx(t), tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range secs {
		found = found || (s.Kind == task.SectionHumanReview && s.Body == body)
	}
	if got, _ := st.GetTask(ctx(t), tk.ID); !found || got.Status != task.StatusPending {
		t.Fatalf("status %s, human review section found %v", got.Status, found)
	}
	// Run it again to done, then reject it.
	if _, err := st.Claim(ctx(t), tk.ID, store.ClaimInfo{Role: task.RoleDeveloper, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Transition(ctx(t), tk.ID, task.StatusDone, store.TransitionNote{}); err != nil {
		t.Fatal(err)
	}
	before := snap(t, f.repo)
	if _, err := newService(t).Reject(ctx(t), RejectRequest{Repo: f.repo, TaskID: tk.ID, Status: task.StatusDone}, rec); err != nil {
		t.Fatal(err)
	}
	before.same(t, f.repo)
	if got, _ := st.GetTask(ctx(t), tk.ID); got.Status != task.StatusRejected {
		t.Fatalf("status = %s", got.Status)
	}
}

func TestDefaultTarget(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	sh(t, repo, "branch", "release")
	s := newService(t)
	for base, want := range map[string]string{"release": "release", "": "main", "HEAD": "main", "v1.0": "main"} {
		if got, err := s.DefaultTarget(ctx(t), repo, base); err != nil || got != want {
			t.Fatalf("base %q: %q, %v; want %q", base, got, err, want)
		}
	}
	sh(t, repo, "switch", "-q", "--detach")
	if _, err := s.DefaultTarget(ctx(t), repo, ""); !errors.Is(err, ErrNoTarget) {
		t.Fatalf("detached: %v", err)
	}
}
