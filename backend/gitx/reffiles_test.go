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

// TestRefsUnderReadsWhatGitLists compares RefsUnder with git's
// for-each-ref through loose refs, packed ones, a loose ref over its
// packed entry, a deleted one, a stale lock file and a nested name.
func TestRefsUnderReadsWhatGitLists(t *testing.T) {
	repo := newRepo(t)
	g := gitx.New()
	common := filepath.Join(repo, ".git")
	one := sh(t, repo, "rev-parse", "HEAD")
	write(t, filepath.Join(repo, "a.txt"), "two\n")
	sh(t, repo, "commit", "-qam", "second")
	two := sh(t, repo, "rev-parse", "HEAD")
	const prefix = "refs/boof-runner/leftovers/T/"
	check := func(stage string, want int) {
		t.Helper()
		got, err := g.RefsUnder(ctx(t), repo, common, prefix)
		if err != nil {
			t.Fatalf("%s: %v", stage, err)
		}
		listed := map[string]string{}
		for _, line := range strings.Split(sh(t, repo, "for-each-ref", "--format=%(objectname) %(refname)", prefix), "\n") {
			if sha, ref, ok := strings.Cut(line, " "); ok {
				listed[ref] = sha
			}
		}
		if len(got) != want || len(listed) != want {
			t.Fatalf("%s: read %v, git lists %v, want %d refs", stage, got, listed, want)
		}
		for ref, sha := range listed {
			if got[ref] != sha {
				t.Fatalf("%s: %s read as %q, git says %s", stage, ref, got[ref], sha)
			}
		}
	}
	check("none", 0)
	sh(t, repo, "update-ref", prefix+"1", one)
	sh(t, repo, "update-ref", prefix+"2", two)
	sh(t, repo, "update-ref", "refs/boof-runner/leftovers/U/1", one)
	check("loose", 2)
	sh(t, repo, "pack-refs", "--all")
	check("packed", 2)
	sh(t, repo, "update-ref", prefix+"1", two)
	sh(t, repo, "update-ref", prefix+"sub/3", one)
	write(t, filepath.Join(common, "refs", "boof-runner", "leftovers", "T", "4.lock"), one+"\n")
	check("loose over packed, nested, a lock file", 3)
	sh(t, repo, "update-ref", "-d", prefix+"2")
	check("deleted", 2)
	if err := os.WriteFile(filepath.Join(common, "refs", "boof-runner", "leftovers", "T", "5"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("a symbolic ref (git is asked)", 3)
}
