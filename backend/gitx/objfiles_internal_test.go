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

// readCommitTree gives git's answer for loose commits and for whole
// commits in a pack (before and after a repack without deltas), and
// leaves to git what it does not read (a tree, an unknown id).
func TestReadCommitTreeMatchesGit(t *testing.T) {
	repo := t.TempDir()
	run(t, repo, "init", "-q", "-b", "main")
	for i := 0; i < 30; i++ {
		if err := os.WriteFile(filepath.Join(repo, "f.txt"), []byte(strings.Repeat("line\n", i+1)), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, repo, "add", "f.txt")
		run(t, repo, "commit", "-qm", "commit "+strings.Repeat("x", i))
	}
	commits := strings.Fields(run(t, repo, "rev-list", "main"))
	common := filepath.Join(repo, ".git")
	check := func(stage string, mustRead bool) {
		t.Helper()
		read := 0
		for _, c := range commits {
			tree, ok := readCommitTree(common, c)
			if !ok {
				if mustRead {
					t.Fatalf("%s: %s not read", stage, c)
				}
				continue
			}
			read++
			if want := run(t, repo, "rev-parse", c+"^{tree}"); tree != want {
				t.Fatalf("%s: tree of %s read as %s, git says %s", stage, c, tree, want)
			}
		}
		t.Logf("%s: %d of %d commits read without git", stage, read, len(commits))
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
