package app

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/task"
)

// queueItem returns the task's entry in the list (history included).
func queueItem(t *testing.T, svc *MergeQueueService, id string) QueueItem {
	t.Helper()
	items, err := svc.List(true)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if it.TaskID == id {
			return it
		}
	}
	return QueueItem{}
}

// The window's merge queue, through the bound services on a real host:
// two tasks the mock finished are queued while the runner is paused, the
// second moved first; resumed, the queue lands the green one on main and
// parks the red one (the repository's verify command, set through the
// Settings screen's service, fails on a file only it adds) with the
// verify's reason; "Send back" returns it to its developer as a fix run
// whose prompt asks to make verify pass on top of main.
func TestMergeQueueServiceLandsParksAndSendsBack(t *testing.T) {
	f := startHost(t)
	ctx := context.Background()
	g := gitx.New()
	q := f.host.Queue
	q.OnChange = func() { f.rec.Emit(EventQueueChanged) }
	svc := NewMergeQueueService(q, f.st, f.rec, context.Background, f.host.Runner.Wake)
	vs := NewVerifyService(g, f.st, f.rec, context.Background, func() string { return f.repo })

	green, err := f.tasks.Create(NewTaskInput{Title: "Green work", Prompt: "Add a greeting"})
	if err != nil {
		t.Fatal(err)
	}
	red, err := f.tasks.Create(NewTaskInput{Title: "Red work", Prompt: "Add a marker"})
	if err != nil {
		t.Fatal(err)
	}
	gt := f.waitStatus(t, green.ID, task.StatusDone)
	rt := f.waitStatus(t, red.ID, task.StatusDone)
	commitOnBranch(t, f.repo, gt.Branch, map[string]string{"greeting.txt": "hello\n"})
	commitOnBranch(t, f.repo, rt.Branch, map[string]string{"RED": "fails verify\n"})

	// No command yet: the Settings screen shows none and no suggestion
	// (the repository has no go.mod); a bad command changes nothing.
	v, err := vs.Get(f.repo)
	if err != nil || v.Command != "" || len(v.Suggestions) != 0 || !v.Exists {
		t.Fatalf("Get = %+v, %v", v, err)
	}
	if _, err := vs.Set(f.repo, "two\nlines"); err == nil {
		t.Fatal("a two-line command was stored")
	}
	if v, err = vs.Set(filepath.Join(f.repo, "."), "test ! -f RED"); err != nil || v.Command != "test ! -f RED" || v.Path != f.repo {
		t.Fatalf("Set = %+v, %v", v, err)
	}

	if _, err := f.host.Settings.Set("runner.enabled", "false"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Add(green.ID, QueueAddInput{}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Add(green.ID, QueueAddInput{}); err == nil || !strings.Contains(err.Error(), "already in the merge queue") {
		t.Fatalf("second add: %v", err)
	}
	if _, err := svc.Add(red.ID, QueueAddInput{Strategy: "sideways"}); err == nil {
		t.Fatal("a bad strategy was queued")
	}
	if _, err := svc.Add(red.ID, QueueAddInput{Target: "main", Strategy: "squash"}); err != nil {
		t.Fatal(err)
	}
	items, err := svc.Move(red.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, it := range items {
		order = append(order, it.Title+" "+it.State+" "+it.Strategy+" "+it.Target)
	}
	if want := []string{"Red work queued squash main", "Green work queued merge main"}; !slices.Equal(order, want) {
		t.Fatalf("queue %q, want %q", order, want)
	}
	if n, err := svc.Count(); err != nil || n != 2 {
		t.Fatalf("Count = %d, %v", n, err)
	}

	if _, err := f.host.Settings.Set("runner.enabled", "true"); err != nil {
		t.Fatal(err)
	}
	f.host.Runner.Wake()
	waitFor(t, "the green entry landed", func() bool { return queueItem(t, svc, green.ID).State == "landed" })
	waitFor(t, "the red entry parked", func() bool { return queueItem(t, svc, red.ID).State == "blocked" })
	parked := queueItem(t, svc, red.ID)
	if parked.Reason != "verification failed: test ! -f RED exited 1" {
		t.Fatalf("parked reason %q", parked.Reason)
	}
	if _, err := os.Stat(filepath.Join(f.repo, "greeting.txt")); err != nil {
		t.Fatalf("the checked-out main does not have the green work: %v", err)
	}
	if log := git(t, f.repo, "log", "--format=%s", "main"); !strings.Contains(log, green.ID) {
		t.Fatalf("main's history does not name the landed task:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(f.repo, "RED")); err == nil {
		t.Fatal("the red work landed on main")
	}
	if !slices.Contains(f.rec.Names(), EventQueueChanged) {
		t.Fatal("no queue:changed event reached the window")
	}

	// A green entry cannot be sent back; the red one can.
	if _, err := svc.SendBack(green.ID); err == nil {
		t.Fatal("a landed entry was sent back")
	}
	back, err := svc.SendBack(red.ID)
	if err != nil {
		t.Fatal(err)
	}
	if back.State != "returned" {
		t.Fatalf("sent back entry is %s", back.State)
	}
	// The fix run's developer receives the queue's review: merge main,
	// make verify pass there (the mock leaves RED: the task's own gate
	// then fails it, a clear end).
	stateBase := filepath.Join(filepath.Dir(f.repo), "data", "mock-state")
	waitFor(t, "the fix run's developer", func() bool {
		for _, r := range receivedIn(t, stateBase, rt.WorktreePath) {
			if r.Role == task.RoleDeveloper && strings.Contains(r.Prompt, "git merge main") && strings.Contains(r.Prompt, "verification failed: test ! -f RED exited 1") {
				return true
			}
		}
		return false
	})
	waitFor(t, "the fix run to end", func() bool {
		got, _ := f.st.GetTask(ctx, red.ID)
		return got.Status.Terminal()
	})
	if removed, err := svc.Remove(red.ID); err != nil || !removed {
		t.Fatalf("Remove = %v, %v", removed, err)
	}
	if it := queueItem(t, svc, red.ID); it.TaskID != "" {
		t.Fatalf("removed entry still listed: %+v", it)
	}
}

// The Settings screen's verify command per repository: a Go module is
// suggested `go test ./...` (shown, not stored); set, listed, unset; a
// folder that is not a repository is a clear error.
func TestVerifyServiceSuggestsSetsAndUnsets(t *testing.T) {
	st := newTestStore(t)
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module x\n\ngo 1.22\n"), 0o644)
	vs := NewVerifyService(gitx.New(), st, &RecordingEmitter{}, context.Background, func() string { return repo })
	v, err := vs.Get(repo)
	if err != nil {
		t.Fatal(err)
	}
	if v.Command != "" || len(v.Suggestions) != 1 || v.Suggestions[0].Command != "go test ./..." || v.Suggestions[0].Because != "go.mod" {
		t.Fatalf("Get = %+v", v)
	}
	if _, err := st.GetRepoVerify(context.Background(), repo); err == nil {
		t.Fatal("a suggestion was stored without the user accepting it")
	}
	repos, err := vs.Repos()
	if err != nil || len(repos) != 1 || repos[0].Path != repo || len(repos[0].Suggestions) != 1 {
		t.Fatalf("Repos = %+v, %v", repos, err)
	}
	if v, err = vs.Set(repo, "go test ./..."); err != nil || v.Command != "go test ./..." || len(v.Suggestions) != 0 {
		t.Fatalf("Set = %+v, %v", v, err)
	}
	if v, err = vs.Unset(repo); err != nil || v.Command != "" || len(v.Suggestions) != 1 {
		t.Fatalf("Unset = %+v, %v", v, err)
	}
	if _, err := vs.Unset(repo); err == nil {
		t.Fatal("unsetting a command that is not set succeeded")
	}
	if _, err := vs.Get(t.TempDir()); err == nil {
		t.Fatal("a folder outside any repository was accepted")
	}
}
