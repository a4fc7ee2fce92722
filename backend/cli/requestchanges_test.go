package cli_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent/mock"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func lines(n int, upper ...int) string {
	up := map[int]bool{}
	for _, i := range upper {
		up[i] = true
	}
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if up[i] {
			fmt.Fprintf(&b, "LINE %d\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	return b.String()
}

func readTask(t *testing.T, data, id string) task.Task {
	t.Helper()
	st, err := store.Open(context.Background(), dataroot.Paths{Root: data}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tk, err := st.GetTask(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// request-changes through the CLI: a task the mock ran to done gets a
// general comment, a comment on hunk 1 of lib.txt and a drop of the only
// hunk of a file whose name has a colon, a space and a leading dash; a
// hunk number the diff does not have is refused first, changing nothing.
// The next run is fix run 1: the developer's prompt — as the mock agent
// process recorded it — carries the review, and the branch has the drop's
// own commit.
func TestRequestChangesCLIReachesTheDeveloper(t *testing.T) {
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	writeFile(t, filepath.Join(repo, "lib.txt"), lines(40))
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-qm", "first")
	data := filepath.Join(t.TempDir(), "data")
	if err := dataroot.Ensure(data); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dataroot.Paths{Root: data}.Settings(), `{"workingDirectory": "`+repo+`",
		"roles": {"planner": {"tool": "mock"}, "refinement": {"tool": "mock"}, "developer": {"tool": "mock"}, "reviewer": {"tool": "mock"}}}`)
	id := strings.TrimSpace(runCLI(t, data, "", "add", "--repo", repo, "Shout lines 3 and 30 of lib.txt").stdout)
	if r := runCLI(t, data, "", "runner", "--once"); r.code != 0 || statusOf(t, data, id) != "done" {
		t.Fatalf("first run: %+v, status %s", r, statusOf(t, data, id))
	}
	tk := readTask(t, data, id)
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, repo, "worktree", "add", "-q", wt, tk.Branch)
	const odd = "-odd: name.txt"
	writeFile(t, filepath.Join(wt, "lib.txt"), lines(40, 3, 30))
	writeFile(t, filepath.Join(wt, odd), "drop me\n")
	git(t, wt, "add", "-A")
	git(t, wt, "commit", "-qm", "agent work")
	git(t, repo, "worktree", "remove", "--force", wt)
	head := git(t, repo, "rev-parse", tk.Branch)

	bad := runCLI(t, data, "", "request-changes", id, "-m", "x", "--drop", "lib.txt:9")
	if bad.code == 0 || !strings.Contains(bad.stderr, `"lib.txt" has 2 hunk(s) in the task's diff: no hunk 9`) {
		t.Fatalf("hunk 9: %+v", bad)
	}
	if statusOf(t, data, id) != "done" || git(t, repo, "rev-parse", tk.Branch) != head {
		t.Fatal("a refused request changed the task or its branch")
	}

	r := runCLI(t, data, "", "request-changes", id, "-m", "Say why on top of the file.",
		"--comment", "lib.txt:1=Why upper case? x:2=y", "--drop", odd+":1")
	if r.code != 0 || !strings.Contains(r.stdout, "fix run 1 queued for "+id) {
		t.Fatalf("request-changes: %+v", r)
	}
	if r := runCLI(t, data, "", "runner", "--once"); r.code != 0 || statusOf(t, data, id) != "done" {
		t.Fatalf("fix run: %+v, status %s", r, statusOf(t, data, id))
	}
	all, err := mock.ReadReceived(filepath.Join(data, "mock-state"))
	if err != nil {
		t.Fatal(err)
	}
	var got []mock.Received
	for _, g := range all {
		if g.Dir == tk.WorktreePath {
			got = append(got, g)
		}
	}
	var dev string
	for _, g := range got {
		if g.Role == task.RoleDeveloper && strings.Contains(g.Prompt, "## Human review") {
			dev = g.Prompt
			break
		}
	}
	for _, want := range []string{"Fix run 1 for your review", "Say why on top of the file.", "`lib.txt`, hunk 1 `@@ -1,6 +1,6 @@`, line 1:",
		"+LINE 3", "Why upper case? x:2=y", "### Dropped hunks", "`-odd: name.txt`, hunk 1"} {
		if !strings.Contains(dev, want) {
			t.Fatalf("the fix run's developer prompt lacks %q:\n%s", want, dev)
		}
	}
	if roles := got[len(got)-1].Role; roles == task.RolePlanner {
		t.Fatal("the fix run ended at the planner")
	}
	log := git(t, repo, "log", "--format=%s", head+".."+tk.Branch)
	if !strings.HasSuffix(log, "Drop hunk 1 of "+odd) {
		t.Fatalf("fix run commits:\n%s", log)
	}
	if files := git(t, repo, "ls-tree", "--name-only", tk.Branch); strings.Contains(files, odd) {
		t.Fatalf("the dropped file is still on the branch:\n%s", files)
	}
	if show := runCLI(t, data, "", "show", id, "--sections").stdout; !strings.Contains(show, "Why upper case? x:2=y") {
		t.Fatalf("show does not list the review:\n%s", show)
	}
}

// accept --only takes the chosen file into main as one squash commit; a
// hunk the diff does not have and a merge with a subset are refused
// changing nothing; the task branch keeps the rest.
func TestAcceptOnlyCLI(t *testing.T) {
	data, repo, id, mainHead := reviewSetup(t)
	taskHead := git(t, repo, "rev-parse", "boof-runner/"+id)
	for _, args := range [][]string{
		{"accept", id, "--only", "a.txt:2"},
		{"accept", id, "--only", "c d.txt", "--strategy", "merge"},
		{"accept", id, "--only", "nope.txt:1"},
	} {
		r := runCLI(t, data, "", args...)
		if r.code == 0 || !strings.HasPrefix(r.stderr, "boof-runner: Nothing changed: ") {
			t.Fatalf("%v: %+v", args, r)
		}
		if git(t, repo, "rev-parse", "main") != mainHead || statusOf(t, data, id) != "done" {
			t.Fatalf("%v changed something", args)
		}
	}
	if r := runCLI(t, data, "", "accept", id, "--only", "a.txt:2"); !strings.Contains(r.stderr, `"a.txt" has 1 hunk(s) in the task's diff: no hunk 2`) {
		t.Fatalf("hunk 2: %s", r.stderr)
	}
	r := runCLI(t, data, "", "accept", id, "--only", "c d.txt")
	if r.code != 0 || !strings.Contains(r.stdout, "accepted "+id+" into main (squash)") || !strings.Contains(r.stdout, "took c d.txt (whole file)") {
		t.Fatalf("accept --only: %+v", r)
	}
	if git(t, repo, "rev-parse", "main^") != mainHead || git(t, repo, "show", "main:a.txt") != "one" || git(t, repo, "show", "main:c d.txt") != "sea" {
		t.Fatal("main does not hold exactly the chosen file in one commit")
	}
	if git(t, repo, "rev-parse", "boof-runner/"+id) != taskHead || statusOf(t, data, id) != "accepted" {
		t.Fatal("the task branch moved or the accept was not recorded")
	}
}
