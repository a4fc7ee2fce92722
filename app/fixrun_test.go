package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// numbered is n lines "line 1" … "line n", with the lines in upper
// replaced by "LINE i".
func numbered(n int, upper ...int) string {
	var b strings.Builder
	up := map[int]bool{}
	for _, i := range upper {
		up[i] = true
	}
	for i := 1; i <= n; i++ {
		if up[i] {
			fmt.Fprintf(&b, "LINE %d\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	return b.String()
}

// commitOnBranch commits files onto branch in a temporary worktree of repo
// (the work an agent did, as a test sets it up).
func commitOnBranch(t *testing.T, repo, branch string, files map[string]string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "wt")
	git(t, repo, "worktree", "add", "-q", dir, branch)
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "agent work")
	git(t, repo, "worktree", "remove", "--force", dir)
}

// The user's request for changes reaches the agents: through the bound
// service, a done task gets a general comment, a hunk comment and a
// dropped hunk; the queue runs fix run 1 from the developer (no planner,
// no refinement), the dropped hunk is reverted in a "Drop hunk" commit
// before the developer runs, and the developer and the reviewer both
// receive the review — as the mock agent process recorded it.
func TestRequestChangesReachesTheAgents(t *testing.T) {
	f := startHost(t)
	ctx := context.Background()
	os.WriteFile(filepath.Join(f.repo, "lib.txt"), []byte(numbered(40)), 0o644)
	git(t, f.repo, "add", "lib.txt")
	git(t, f.repo, "commit", "-q", "-m", "lib")

	a, err := f.tasks.Create(NewTaskInput{Prompt: "Shout lines 3 and 30 of lib.txt"})
	if err != nil {
		t.Fatal(err)
	}
	done := f.waitStatus(t, a.ID, task.StatusDone)
	commitOnBranch(t, f.repo, done.Branch, map[string]string{"lib.txt": numbered(40, 3, 30)})

	g := gitx.New()
	stateBase := filepath.Join(filepath.Dir(f.repo), "data", "mock-state")
	var wakes atomic.Int32 // the runner is woken once the fix run is queued, not before
	svc := NewReviewService(g, f.st, worktree.NewManager(g, time.Now), review.New(g, time.Now, review.WithJournal(review.NewJournal(t.TempDir(), ""))), f.rec, context.Background,
		WithWake(func() { wakes.Add(1); f.host.Runner.Wake() }))
	fp, err := svc.FilePatch(a.ID, "lib.txt", false)
	if err != nil {
		t.Fatal(err)
	}
	_, hunks := review.SplitPatch(fp.Patch)
	if len(hunks) != 2 {
		t.Fatalf("lib.txt has %d hunks:\n%s", len(hunks), fp.Patch)
	}
	before := receivedIn(t, stateBase, done.WorktreePath)
	headBefore := git(t, f.repo, "rev-parse", done.Branch)

	// A hunk the diff does not have is refused, naming it, and nothing changes.
	stale := review.ChangeRequest{General: "x", Drops: []review.Drop{{File: "lib.txt", Hunk: "@@ -7 +7 @@\n-line 7\n+LINE 7\n"}}}
	if _, err := svc.RequestChanges(a.ID, stale); err == nil || !strings.Contains(err.Error(), "lib.txt") {
		t.Fatalf("stale hunk: %v", err)
	}
	if got, _ := f.st.GetTask(ctx, a.ID); got.Status != task.StatusDone {
		t.Fatalf("a refused review moved the task to %s", got.Status)
	}
	if n := wakes.Load(); n != 0 {
		t.Fatalf("a refused review woke the runner %d times", n)
	}

	q, err := svc.RequestChanges(a.ID, review.ChangeRequest{
		General:  "Keep the shouting, but add a comment on top of lib.txt.",
		Comments: []review.Comment{{File: "lib.txt", Hunk: hunks[0].Text, Text: "Why is line 3 upper case? Say why in the file."}},
		Drops:    []review.Drop{{File: "lib.txt", Hunk: hunks[1].Text}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if q.Fix != 1 || !strings.HasPrefix(q.Body, review.HumanReviewHeading) {
		t.Fatalf("queued %+v", q)
	}
	if n := wakes.Load(); n != 1 {
		t.Fatalf("the queued fix run woke the runner %d times, want 1", n)
	}
	fixed := f.waitStatus(t, a.ID, task.StatusDone)
	if fixed.FixRuns != 1 || fixed.CompletedRuns != 1 {
		t.Fatalf("runs %d, fix runs %d", fixed.CompletedRuns, fixed.FixRuns)
	}

	// What the agents received in the fix run.
	all := receivedIn(t, stateBase, done.WorktreePath)
	got := all[len(before):]
	roles := []task.Role{}
	for _, r := range got {
		roles = append(roles, r.Role)
	}
	if len(got) < 2 || got[0].Role != task.RoleDeveloper {
		t.Fatalf("the fix run's steps: %v (want the developer first, no planning)", roles)
	}
	var dev, rev string
	for _, r := range got {
		if r.Role == task.RolePlanner || r.Role == task.RoleRefinement {
			t.Fatalf("the fix run re-planned: %v", roles)
		}
		if r.Role == task.RoleDeveloper && dev == "" {
			dev = r.Prompt
		}
		if r.Role == task.RoleReviewer {
			rev = r.Prompt
		}
	}
	for _, want := range []string{
		"## Fix run\n\nFix run 1 for your review",
		"## Human review",
		"Keep the shouting, but add a comment on top of lib.txt.",
		"`lib.txt`, hunk 1 `" + hunks[0].Header + "`",
		"+LINE 3",
		"Why is line 3 upper case? Say why in the file.",
		"### Dropped hunks",
		"`lib.txt`, hunk 2 `" + hunks[1].Header + "`",
		"## Final plan",
	} {
		if !strings.Contains(dev, want) {
			t.Fatalf("the developer's prompt lacks %q:\n%s", want, dev)
		}
	}
	if strings.Contains(dev, "This is run 2") {
		t.Fatalf("the fix run is framed as a planned run:\n%s", dev)
	}
	if !strings.Contains(rev, "Why is line 3 upper case?") || !strings.Contains(rev, "Fix run 1 for your review") {
		t.Fatalf("the reviewer did not see the review:\n%s", rev)
	}

	// The drop: its own commit, before the developer's, reverting line 30 only.
	log := git(t, f.repo, "log", "--format=%s", headBefore+".."+fixed.Branch)
	subjects := strings.Split(log, "\n")
	if len(subjects) < 2 || subjects[len(subjects)-1] != "Drop hunk 2 of lib.txt" {
		t.Fatalf("commits of the fix run (newest first):\n%s", log)
	}
	lib := git(t, f.repo, "show", fixed.Branch+":lib.txt")
	if !strings.Contains(lib, "LINE 3\n") || !strings.Contains(lib, "line 30\n") || strings.Contains(lib, "LINE 30") {
		t.Fatalf("lib.txt after the fix run:\n%s", lib)
	}

	// What the user sees: the review in the history, the run and the drop in the events.
	secs, _ := f.st.Sections(ctx, a.ID)
	var kept bool
	for _, s := range secs {
		kept = kept || (s.Kind == task.SectionHumanReview && s.Body == q.Body)
	}
	evs, _ := f.st.Events(ctx, a.ID, time.Time{})
	var started, dropped bool
	for _, e := range evs {
		switch d := e.Data.(type) {
		case task.RunStarted:
			started = started || (d.Start == task.RunFix && d.Fix == 1 && d.Step == "developer")
		case task.HunkDropped:
			dropped = dropped || (d.File == "lib.txt" && d.Index == 2 && d.Commit != "")
		}
	}
	if !kept || !started || !dropped {
		t.Fatalf("history: review kept %v, fix run started %v, hunk dropped %v", kept, started, dropped)
	}

	// A second request on the same (now moved) diff naming the dropped hunk is refused.
	if _, err := svc.RequestChanges(a.ID, review.ChangeRequest{Drops: []review.Drop{{File: "lib.txt", Hunk: hunks[1].Text}}}); err == nil || !strings.Contains(err.Error(), "lib.txt") {
		t.Fatalf("dropping a hunk twice: %v", err)
	}
}

// A hunk-level accept through the bound service: one file of two goes
// into main as one squash commit; a selection made on a diff the branch
// has since moved past is refused, naming the branch, changing nothing.
func TestReviewServiceAcceptOnly(t *testing.T) {
	st := newTestStore(t)
	tk, repo := doneTask(t, st)
	g := gitx.New()
	svc := NewReviewService(g, st, worktree.NewManager(g, time.Now), review.New(g, time.Now, review.WithJournal(review.NewJournal(t.TempDir(), ""))), &RecordingEmitter{}, context.Background)
	sum, err := svc.Summary(tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	mainBefore := git(t, repo, "rev-parse", "main")
	in := AcceptInput{Target: "main", Strategy: "squash", Only: []review.Selection{{File: "README", Hunks: []int{1}}}, ExpectHead: sum.Base}
	if _, err := svc.Accept(tk.ID, in); err == nil || !strings.Contains(err.Error(), "boof-runner/"+tk.ID+" moved meanwhile") {
		t.Fatalf("stale diff: %v", err)
	}
	if git(t, repo, "rev-parse", "main") != mainBefore {
		t.Fatal("a refused accept moved main")
	}
	in.ExpectHead = sum.Head
	rec, err := svc.Accept(tk.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Only) != 1 || rec.Only[0].File != "README" || git(t, repo, "rev-parse", "main^") != mainBefore {
		t.Fatalf("record %+v", rec)
	}
	if git(t, repo, "show", "main:README") != "hello\nworld" || strings.Contains(git(t, repo, "ls-tree", "--name-only", "main"), "new file.txt") {
		t.Fatal("main does not hold exactly the chosen hunk")
	}
	evs, _ := st.Events(context.Background(), tk.ID, time.Time{})
	var recorded bool
	for _, e := range evs {
		if a, ok := e.Data.(task.Accepted); ok {
			recorded = len(a.Only) == 1 && a.Only[0].File == "README" // its every hunk: the whole file
		}
	}
	if !recorded {
		t.Fatal("the task's history does not say which hunks went in")
	}
}
