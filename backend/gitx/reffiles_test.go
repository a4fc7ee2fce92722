package gitx_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// gitRefs is what `git rev-parse --verify` says of each ref.
func gitRefs(t *testing.T, dir string, refs []string) map[string]string {
	t.Helper()
	want := map[string]string{}
	for _, r := range refs {
		cmd := exec.Command("git", "-C", dir, "rev-parse", "--verify", "--quiet", r)
		if out, err := cmd.Output(); err == nil {
			want[r] = strings.TrimSpace(string(out))
		}
	}
	return want
}

// TestRefSHAsReadsWhatGitResolves compares RefSHAs with git through a
// repository's life: loose refs, packed ones, a loose ref newer than its
// packed entry, a deleted packed ref, a name that is a directory of
// branches, and layouts it leaves to git (a symbolic branch, includes).
func TestRefSHAsReadsWhatGitResolves(t *testing.T) {
	repo := newRepo(t)
	g := gitx.New()
	common := filepath.Join(repo, ".git")
	refs := []string{"refs/heads/main", "refs/heads/a", "refs/heads/b", "refs/heads/dir", "refs/heads/dir/x", "refs/heads/none"}
	check := func(stage string) {
		t.Helper()
		got, err := g.RefSHAs(ctx(t), repo, common, refs...)
		if err != nil {
			t.Fatalf("%s: %v", stage, err)
		}
		want := gitRefs(t, repo, refs)
		if len(got) != len(want) {
			t.Fatalf("%s: RefSHAs %v, git %v", stage, got, want)
		}
		for r, sha := range want {
			if got[r] != sha {
				t.Fatalf("%s: %s is %q, git says %q", stage, r, got[r], sha)
			}
		}
	}
	sh(t, repo, "branch", "a")
	sh(t, repo, "branch", "dir/x")
	check("loose")
	sh(t, repo, "pack-refs", "--all")
	if _, err := os.Stat(filepath.Join(common, "refs", "heads", "a")); err == nil {
		t.Fatal("pack-refs left the loose ref")
	}
	check("packed")
	write(t, filepath.Join(repo, "f.txt"), "more\n")
	sh(t, repo, "add", "f.txt")
	sh(t, repo, "commit", "-qm", "more")
	sh(t, repo, "branch", "-f", "a", "HEAD")
	sh(t, repo, "branch", "b", "HEAD~1")
	check("loose over packed")
	sh(t, repo, "pack-refs", "--all")
	sh(t, repo, "branch", "-D", "b")
	check("packed, one deleted")
	sh(t, repo, "symbolic-ref", "refs/heads/b", "refs/heads/main")
	check("symbolic branch (git answers)")
	sh(t, repo, "config", "include.path", "other.config")
	check("config with includes (git answers)")
}

