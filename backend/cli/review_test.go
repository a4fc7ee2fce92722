package cli_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

var gitIdentity = []string{
	"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
	"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com",
	"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), gitIdentity...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %q: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// reviewSetup makes a repository on main and a finished task in a data
// root whose branch changes a.txt and adds "c d.txt"; the task's worktree
// directory is removed, as a retention policy may do.
func reviewSetup(t *testing.T) (data, repo, id, mainHead string) {
	t.Helper()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	repo = t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	writeFile(t, filepath.Join(repo, "a.txt"), "one\n")
	writeFile(t, filepath.Join(repo, "b.txt"), "bee\n")
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
	tk, err := st.CreateTask(ctx, task.NewTask{Title: "Shout one", Prompt: "shout", Repo: repo})
	if err != nil {
		t.Fatal(err)
	}
	id = tk.ID
	wt := filepath.Join(t.TempDir(), id)
	git(t, repo, "worktree", "add", "-q", "-b", "boof-runner/"+id, wt, "main")
	writeFile(t, filepath.Join(wt, "a.txt"), "ONE\n")
	writeFile(t, filepath.Join(wt, "c d.txt"), "sea\n")
	git(t, wt, "add", "-A")
	git(t, wt, "commit", "-qm", "task work")
	if err := os.RemoveAll(wt); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Claim(ctx, id, store.ClaimInfo{Role: task.RoleDeveloper, Tool: "mock"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Transition(ctx, id, task.StatusDone, store.TransitionNote{BaseSHA: base, Branch: "boof-runner/" + id}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(repo, "b.txt"), "bee moved\n")
	git(t, repo, "commit", "-qam", "main moved")
	return data, repo, id, git(t, repo, "rev-parse", "HEAD")
}

func statusOf(t *testing.T, data, id string) string {
	t.Helper()
	for _, l := range listJSON(t, data) {
		if l.ID == id {
			return l.Status
		}
	}
	t.Fatalf("task %s not listed", id)
	return ""
}

func TestDiffFromBranchesAfterWorktreeRemoved(t *testing.T) {
	data, _, id, _ := reviewSetup(t)
	r := runCLI(t, data, "", "diff", id, "--stat")
	if r.code != 0 || !strings.Contains(r.stdout, "added      +1      -0      c d.txt") ||
		!strings.Contains(r.stdout, "modified   +1      -1      a.txt") || !strings.Contains(r.stdout, "2 file(s) changed, 2 insertion(s), 1 deletion(s)") {
		t.Fatalf("diff --stat: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// main moved on (b.txt) after the task started: not part of its diff.
	r = runCLI(t, data, "", "diff", id)
	if r.code != 0 || !strings.Contains(r.stdout, "+ONE") || !strings.Contains(r.stdout, "+sea") || strings.Contains(r.stdout, "b.txt") {
		t.Fatalf("diff: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, data, "", "diff", id, "--file", "c d.txt")
	if r.code != 0 || !strings.Contains(r.stdout, "+sea") || strings.Contains(r.stdout, "ONE") {
		t.Fatalf("diff --file: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r = runCLI(t, data, "", "diff", id, "--file", "b.txt"); r.code != 1 || !strings.Contains(r.stderr, "not changed") {
		t.Fatalf("diff --file of an unchanged file: %d %s", r.code, r.stderr)
	}
}

func TestAcceptUndoAcceptCLI(t *testing.T) {
	data, repo, id, mainHead := reviewSetup(t)
	if r := runCLI(t, data, "", "accept", id, "--strategy", "octopus"); r.code != 2 {
		t.Fatalf("bad strategy: %d %s", r.code, r.stderr)
	}
	r := runCLI(t, data, "", "accept", id, "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "would make a merge commit on main at "+mainHead+", bringing 1 commit(s) of boof-runner/"+id+"\nmessage: Merge boof-runner/"+id+": Shout one\n") || !strings.Contains(r.stdout, "checked out in "+repo) {
		t.Fatalf("dry run: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	writeFile(t, filepath.Join(repo, "b.txt"), "local edit\n")
	r = runCLI(t, data, "", "accept", id, "--strategy", "squash")
	if want := "boof-runner: Nothing changed: the target checkout " + repo + ` has uncommitted changes in "b.txt"; commit or stash them first.` + "\n"; r.code != 1 || r.stderr != want {
		t.Fatalf("dirty accept: %d %s", r.code, r.stderr)
	}
	if git(t, repo, "rev-parse", "main") != mainHead || statusOf(t, data, id) != "done" {
		t.Fatal("a refused accept changed something")
	}
	git(t, repo, "checkout", "-q", "--", "b.txt")

	r = runCLI(t, data, "", "accept", id, "--strategy", "squash")
	if r.code != 0 || !strings.Contains(r.stdout, "accepted "+id+" into main (squash)") {
		t.Fatalf("accept: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if statusOf(t, data, id) != "accepted" || git(t, repo, "rev-parse", "main^") != mainHead {
		t.Fatal("accept not recorded or not a squash on main")
	}
	if msg := git(t, repo, "log", "-1", "--format=%s"); msg != "Shout one" {
		t.Fatalf("squash subject = %q", msg)
	}
	if got, _ := os.ReadFile(filepath.Join(repo, "c d.txt")); string(got) != "sea\n" {
		t.Fatal("checkout not updated")
	}
	if r = runCLI(t, data, "", "accept", id); r.code != 1 || r.stderr != "boof-runner: This task is already accepted.\n" {
		t.Fatalf("second accept: %d %s", r.code, r.stderr)
	}

	r = runCLI(t, data, "", "undo-accept", id)
	if r.code != 0 || statusOf(t, data, id) != "done" || git(t, repo, "rev-parse", "main") != mainHead {
		t.Fatalf("undo: %d %s", r.code, r.stderr)
	}
	if r = runCLI(t, data, "", "undo-accept", id); r.code != 1 || !strings.Contains(r.stderr, "no accept to undo") {
		t.Fatalf("second undo: %d %s", r.code, r.stderr)
	}
}

func TestRejectCLIConfirmsBranchDeletion(t *testing.T) {
	data, repo, id, _ := reviewSetup(t)
	r := runCLI(t, data, "no\n", "reject", id, "--delete-branches")
	if r.code != 1 || !strings.Contains(r.stderr, "this deletes boof-runner/"+id) || statusOf(t, data, id) != "done" {
		t.Fatalf("unconfirmed: %d %s", r.code, r.stderr)
	}
	git(t, repo, "rev-parse", "--verify", "boof-runner/"+id)
	r = runCLI(t, data, "yes\n", "reject", id, "--delete-branches")
	if r.code != 0 || !strings.Contains(r.stdout, "deleted branch boof-runner/"+id) || statusOf(t, data, id) != "rejected" {
		t.Fatalf("confirmed: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if refs := git(t, repo, "for-each-ref", "refs/heads/boof-runner/"); refs != "" {
		t.Fatalf("branches left: %s", refs)
	}
}
