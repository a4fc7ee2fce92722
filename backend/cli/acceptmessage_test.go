package cli_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// addReviewerReport stores a reviewer report on the task.
func addReviewerReport(t *testing.T, data, id, body string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dataroot.Paths{Root: data}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.AddSection(ctx, task.Section{TaskID: id, Kind: task.SectionReviewerReport, Role: task.RoleReviewer,
		Iteration: 1, Round: 1, Verdict: string(task.VerdictApprove), Body: body}); err != nil {
		t.Fatal(err)
	}
}

// accept without --message writes the task's title and the summary of its
// reviewer's report: its first paragraph of prose, not its "## Review"
// heading (which the CLI took as the summary before).
func TestAcceptCLIDefaultMessage(t *testing.T) {
	data, repo, id, _ := reviewSetup(t)
	addReviewerReport(t, data, id, "## Review\n\nOne is shouted now;\nnothing else changed.\n\n```sh\ngo test ./...\n```\n\nVERDICT: APPROVE\n")
	r := runCLI(t, data, "", "accept", id, "--strategy", "merge")
	if r.code != 0 {
		t.Fatalf("accept: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := "Merge boof-runner/" + id + ": Shout one\n\nOne is shouted now;\nnothing else changed.\n\nBoof-Runner-Task: " + id
	if got := git(t, repo, "log", "-1", "--format=%B", "main"); got != want {
		t.Fatalf("merge message:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(git(t, repo, "log", "-1", "--format=%B", "main"), "VERDICT") {
		t.Fatal("the verdict line reached the message")
	}
}

// accept --only --dry-run describes the one squash commit it will make
// (its message, its file and line counts), never the task branch's
// commits; the accept then makes exactly that commit. Before, the dry run
// said "would accept 2 commit(s)".
func TestAcceptOnlyDryRunDescribesTheSquashCommit(t *testing.T) {
	data, repo, id, mainHead := reviewSetup(t)
	addReviewerReport(t, data, id, "Shouting is right.\n\nVERDICT: APPROVE")
	wt := filepath.Join(t.TempDir(), "more")
	git(t, repo, "worktree", "prune")
	git(t, repo, "worktree", "add", "-q", wt, "boof-runner/"+id)
	writeFile(t, filepath.Join(wt, "c d.txt"), "sea\nmore sea\n")
	git(t, wt, "commit", "-qam", "more work")
	git(t, repo, "worktree", "remove", "--force", wt)

	r := runCLI(t, data, "", "accept", id, "--only", "a.txt", "--dry-run")
	want := "would make one squash commit on main at " + mainHead + ", holding only the chosen changes of boof-runner/" + id + " (the rest stays on the task branch)\n" +
		"message: Shout one\n" +
		"1 file(s) changed, 1 insertion(s), 1 deletion(s)\n" +
		"  modified   +1      -1      a.txt\n"
	if r.code != 0 || !strings.HasPrefix(r.stdout, want) || strings.Contains(r.stdout, "2 commit") {
		t.Fatalf("dry run: %d\n%s%s\nwant it to start with:\n%s", r.code, r.stdout, r.stderr, want)
	}
	r = runCLI(t, data, "", "accept", id, "--only", "a.txt", "--dry-run", "--json")
	var plan struct {
		Commits []string `json:"commits"`
		Makes   struct {
			Kind    string `json:"kind"`
			Commits int    `json:"commits"`
			Subset  bool   `json:"subset"`
			Message string `json:"message"`
			Files   []struct {
				Path      string `json:"path"`
				Additions int    `json:"additions"`
				Deletions int    `json:"deletions"`
			} `json:"files"`
		} `json:"makes"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &plan); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	m := plan.Makes
	if len(plan.Commits) != 2 || m.Kind != "squash_commit" || m.Commits != 1 || !m.Subset || len(m.Files) != 1 || m.Files[0].Path != "a.txt" {
		t.Fatalf("plan: %+v", plan)
	}
	if r = runCLI(t, data, "", "accept", id, "--only", "a.txt"); r.code != 0 {
		t.Fatalf("accept: %+v", r)
	}
	if got := git(t, repo, "log", "-1", "--format=%B", "main"); got+"\n" != m.Message {
		t.Fatalf("the commit's message %q is not the dry run's %q", got, m.Message)
	}
	if got := git(t, repo, "rev-list", "--count", mainHead+"..main"); got != "1" {
		t.Fatalf("main gained %s commits", got)
	}
	if got := git(t, repo, "diff", "--numstat", mainHead, "main"); got != "1\t1\ta.txt" {
		t.Fatalf("main changed: %q", got)
	}
}
