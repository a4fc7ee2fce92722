package worktree_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/worktree"
)

// What saving leftovers reads of a worktree from its files is what git
// says: a linked task worktree (its commondir), the repository's own
// working tree, packed refs; a detached HEAD is left to git.
func TestLeftoversStateFromFilesMatchesGit(t *testing.T) {
	repo := newRepo(t)
	m := newManager()
	wt, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "s1"}, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	gitSays := func(dir string) [4]string {
		out, err := exec.Command("git", "-C", dir, "rev-parse", "--path-format=absolute", "--git-path", "index", "--git-common-dir", "HEAD", "HEAD^{tree}").Output()
		if err != nil {
			t.Fatal(err)
		}
		l := strings.Fields(string(out))
		return [4]string{l[0], filepath.Clean(l[1]), l[2], l[3]}
	}
	check := func(stage, dir string) {
		t.Helper()
		got, ok, _ := worktree.StateOf(m, dir, true)
		if !ok {
			t.Fatalf("%s: not read from the files", stage)
		}
		if want := gitSays(dir); got != want {
			t.Fatalf("%s: read %v, git says %v", stage, got, want)
		}
	}
	check("linked worktree", wt.Dir)
	check("main working tree", repo)
	sh(t, repo, "pack-refs", "--all")
	check("packed refs", wt.Dir)
	sh(t, wt.Dir, "checkout", "-q", "--detach")
	if _, ok, _ := worktree.StateOf(m, wt.Dir, true); ok {
		t.Fatal("a detached HEAD was read from the files")
	}
	if got, ok, err := worktree.StateOf(m, wt.Dir, false); !ok || got != gitSays(wt.Dir) {
		t.Fatalf("detached: %v %v", got, err)
	}
}
