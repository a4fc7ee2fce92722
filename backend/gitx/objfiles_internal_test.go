package gitx

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// readCommit gives git's tree and parents for loose commits and for whole
// commits in a pack (before and after a repack without deltas): a root
// commit, ordinary ones, a merge and an octopus merge; it leaves to git
// what it does not read (a tree, an unknown id).
func TestReadCommitMatchesGit(t *testing.T) {
	repo := t.TempDir()
	run(t, repo, "init", "-q", "-b", "main")
	for i := 0; i < 30; i++ {
		if err := os.WriteFile(filepath.Join(repo, "f.txt"), []byte(strings.Repeat("line\n", i+1)), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, repo, "add", "f.txt")
		run(t, repo, "commit", "-qm", "commit "+strings.Repeat("x", i))
	}
	for _, b := range []string{"b1", "b2", "b3"} {
		run(t, repo, "checkout", "-q", "-b", b, "main~3")
		if err := os.WriteFile(filepath.Join(repo, b+".txt"), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, repo, "add", b+".txt")
		run(t, repo, "commit", "-qm", b)
	}
	run(t, repo, "checkout", "-q", "main")
	run(t, repo, "merge", "-q", "--no-ff", "-m", "merge", "b1")
	run(t, repo, "merge", "-q", "--no-ff", "-m", "octopus", "b2", "b3")
	commits := strings.Fields(run(t, repo, "rev-list", "main"))
	common := filepath.Join(repo, ".git")
	check := func(stage string, mustRead bool) {
		t.Helper()
		read := 0
		parents := map[int]int{}
		for _, c := range commits {
			got, ok := readCommit(common, c)
			if !ok {
				if mustRead {
					t.Fatalf("%s: %s not read", stage, c)
				}
				continue
			}
			read++
			if want := run(t, repo, "rev-parse", c+"^{tree}"); got.tree != want {
				t.Fatalf("%s: tree of %s read as %s, git says %s", stage, c, got.tree, want)
			}
			if want := strings.Fields(run(t, repo, "rev-parse", c+"^@")); strings.Join(got.parents, " ") != strings.Join(want, " ") {
				t.Fatalf("%s: parents of %s read as %v, git says %v", stage, c, got.parents, want)
			}
			parents[len(got.parents)]++
		}
		t.Logf("%s: %d of %d commits read without git", stage, read, len(commits))
		if mustRead && (parents[0] == 0 || parents[1] == 0 || parents[2] == 0 || parents[3] == 0) {
			t.Fatalf("%s: commits by parent count %v: want a root, ordinary commits, a merge and an octopus", stage, parents)
		}
	}
	check("loose", true)
	run(t, repo, "repack", "-a", "-d", "-q", "--window=0")
	if _, err := os.Stat(filepath.Join(common, "objects", commits[0][:2], commits[0][2:])); err == nil {
		t.Fatal("repack left the loose object")
	}
	check("packed whole", true)
	run(t, repo, "repack", "-a", "-d", "-q", "-f", "--window=250", "--depth=50")
	check("packed with deltas", false)
	tree := run(t, repo, "rev-parse", "main^{tree}")
	if _, ok := readCommitTree(common, tree); ok {
		t.Error("a tree id was read as a commit")
	}
	if _, ok := readCommitTree(common, strings.Repeat("ab", 20)); ok {
		t.Error("an unknown id was read")
	}
}

// readRefsUnder answers without git for loose and packed refs, and leaves
// a symbolic ref to git.
func TestReadRefsUnderWithoutGit(t *testing.T) {
	repo := t.TempDir()
	run(t, repo, "init", "-q", "-b", "main")
	run(t, repo, "commit", "-q", "--allow-empty", "-m", "one")
	head := run(t, repo, "rev-parse", "HEAD")
	common := filepath.Join(repo, ".git")
	run(t, repo, "update-ref", "refs/keep/a/1", head)
	run(t, repo, "update-ref", "refs/keep/a/2", head)
	run(t, repo, "pack-refs", "--all")
	run(t, repo, "update-ref", "refs/keep/a/3", head)
	got, ok := readRefsUnder(common, "refs/keep/a/")
	if !ok || len(got) != 3 || got["refs/keep/a/1"] != head || got["refs/keep/a/3"] != head {
		t.Fatalf("read %v %v", got, ok)
	}
	run(t, repo, "symbolic-ref", "refs/keep/a/4", "refs/heads/main")
	if _, ok := readRefsUnder(common, "refs/keep/a/"); ok {
		t.Fatal("a symbolic ref was read without git")
	}
	if _, ok := readRefsUnder(common, "refs/keep/a"); ok {
		t.Fatal("a prefix without its slash was read")
	}
}
