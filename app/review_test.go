package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// doneTask makes a repository with a task branch and a done task for it.
func doneTask(t *testing.T, st *store.Store) (task.Task, string) {
	t.Helper()
	ctx := context.Background()
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(repo, "README"), []byte("hello\n"), 0o644)
	git(t, repo, "add", "README")
	git(t, repo, "commit", "-q", "-m", "init")
	base := git(t, repo, "rev-parse", "HEAD")
	tk, err := st.CreateTask(ctx, task.NewTask{Prompt: "add a file", Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	git(t, repo, "checkout", "-q", "-b", "boof-runner/"+tk.ID)
	os.WriteFile(filepath.Join(repo, "new file.txt"), []byte(strings.Repeat("line\n", 200000)), 0o644)
	os.WriteFile(filepath.Join(repo, "README"), []byte("hello\nworld\n"), 0o644)
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "task work")
	git(t, repo, "checkout", "-q", "main")
	if _, err := st.Claim(ctx, tk.ID, store.ClaimInfo{Runner: "test", Iteration: 1, Role: task.RolePlanner, Round: 1, Attempt: 1, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Transition(ctx, tk.ID, task.StatusDone, store.TransitionNote{Branch: "boof-runner/" + tk.ID, BaseSHA: base}); err != nil {
		t.Fatal(err)
	}
	tk, _ = st.GetTask(ctx, tk.ID)
	return tk, repo
}

func TestReviewServiceSummaryPatchAcceptUndo(t *testing.T) {
	st := newTestStore(t)
	tk, repo := doneTask(t, st)
	g := gitx.New()
	rec := &RecordingEmitter{}
	svc := NewReviewService(g, st, worktree.NewManager(g, time.Now), review.New(g, time.Now, review.WithJournal(review.NewJournal(t.TempDir(), ""))), rec, context.Background)

	sum, err := svc.Summary(tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Files) != 2 || sum.Base != tk.BaseSHA || sum.Head != git(t, repo, "rev-parse", "boof-runner/"+tk.ID) {
		t.Fatalf("summary %+v", sum)
	}
	byPath := map[string]DiffFile{}
	for _, f := range sum.Files {
		byPath[f.Path] = f
	}
	if f := byPath["new file.txt"]; f.Change != "added" || f.Additions != 200000 {
		t.Fatalf("new file: %+v", f)
	}
	if f := byPath["README"]; f.Change != "modified" || f.Additions != 1 || f.Deletions != 0 {
		t.Fatalf("README: %+v", f)
	}
	big, err := svc.FilePatch(tk.ID, "new file.txt", false)
	if err != nil || !big.TooLarge || big.Patch != "" || big.Bytes <= patchInlineLimit {
		t.Fatalf("large patch not guarded: %+v %v", big.Bytes, err)
	}
	forced, err := svc.FilePatch(tk.ID, "new file.txt", true)
	if err != nil || forced.TooLarge || len(forced.Patch) != big.Bytes {
		t.Fatalf("show anyway: %d bytes, %v", len(forced.Patch), err)
	}
	small, err := svc.FilePatch(tk.ID, "README", false)
	if err != nil || !strings.Contains(small.Patch, "+world") {
		t.Fatalf("README patch %q %v", small.Patch, err)
	}
	if ws, err := svc.FilePatchWith(tk.ID, "README", PatchRequest{IgnoreWhitespace: true}); err != nil || !strings.Contains(ws.Patch, "+world") {
		t.Fatalf("README patch ignoring whitespace %q %v", ws.Patch, err)
	}
	if _, err := svc.FilePatch(tk.ID, "nope", false); err == nil {
		t.Fatal("unknown path accepted")
	}
	commits, err := svc.Commits(tk.ID, false)
	if err != nil || len(commits) != 1 || commits[0].Subject != "task work" {
		t.Fatalf("commits %+v %v", commits, err)
	}

	plan, err := svc.PlanAccept(tk.ID, AcceptInput{Strategy: "squash", Target: "main"})
	if err != nil || len(plan.Conflicts) != 0 || plan.TargetSHA != tk.BaseSHA {
		t.Fatalf("plan %+v %v", plan, err)
	}
	before := git(t, repo, "rev-parse", "main")
	acc, err := svc.Accept(tk.ID, AcceptInput{Strategy: "squash", Target: "main", ExpectTarget: plan.TargetSHA})
	if err != nil {
		t.Fatal(err)
	}
	if after := git(t, repo, "rev-parse", "main"); after != acc.NewSHA || acc.OldSHA != before {
		t.Fatalf("main at %s, record %+v", after, acc)
	}
	if got, _ := st.GetTask(context.Background(), tk.ID); got.Status != task.StatusAccepted {
		t.Fatalf("status %s", got.Status)
	}
	if err := svc.UndoAccept(tk.ID); err != nil {
		t.Fatal(err)
	}
	if after := git(t, repo, "rev-parse", "main"); after != before {
		t.Fatalf("undo left main at %s", after)
	}
	if got, _ := st.GetTask(context.Background(), tk.ID); got.Status != task.StatusDone {
		t.Fatalf("status after undo %s", got.Status)
	}
}

func TestReviewServiceRejectDeletingBranches(t *testing.T) {
	st := newTestStore(t)
	tk, repo := doneTask(t, st)
	g := gitx.New()
	svc := NewReviewService(g, st, worktree.NewManager(g, time.Now), review.New(g, time.Now, review.WithJournal(review.NewJournal(t.TempDir(), ""))), &RecordingEmitter{}, context.Background)
	bs, err := svc.TaskBranches(tk.ID)
	if err != nil || len(bs) != 1 || bs[0].Name != "boof-runner/"+tk.ID || bs[0].Unique != 1 {
		t.Fatalf("branches %+v %v", bs, err)
	}
	if _, err := svc.RejectDeletingBranches(tk.ID, nil); err == nil {
		t.Fatal("an unconfirmed deletion was accepted")
	}
	if got, _ := st.GetTask(context.Background(), tk.ID); got.Status != task.StatusDone {
		t.Fatalf("a refused reject changed the status to %s", got.Status)
	}
	rec, err := svc.RejectDeletingBranches(tk.ID, bs)
	if err != nil || len(rec.Deleted) != 1 {
		t.Fatalf("reject: %+v %v", rec, err)
	}
	if out := git(t, repo, "branch", "--list", "boof-runner/*"); out != "" {
		t.Fatalf("branches left: %q", out)
	}
	if got, _ := st.GetTask(context.Background(), tk.ID); got.Status != task.StatusRejected {
		t.Fatalf("status %s", got.Status)
	}
}
