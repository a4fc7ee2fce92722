package gitx_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// lite keeps the fields CheckedOut promises.
func lite(list []gitx.WorktreeEntry) []gitx.WorktreeEntry {
	out := make([]gitx.WorktreeEntry, len(list))
	for i, w := range list {
		out[i] = gitx.WorktreeEntry{Path: w.Path, Branch: w.Branch, Bare: w.Bare, Detached: w.Detached}
	}
	return out
}

func sameList(t *testing.T, got, want []gitx.WorktreeEntry) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("CheckedOut = %+v, git worktree list = %+v", got, want)
	}
	byPath := map[string]gitx.WorktreeEntry{}
	for _, w := range want {
		byPath[w.Path] = w
	}
	if got[0] != want[0] {
		t.Fatalf("main worktree: CheckedOut %+v, git %+v", got[0], want[0])
	}
	for _, w := range got {
		if byPath[w.Path] != w {
			t.Fatalf("CheckedOut has %+v, git worktree list %+v", w, byPath[w.Path])
		}
	}
}

// TestCheckedOutReadsWhatGitLists compares the registry read without git
// with `git worktree list` through a repository's life: linked worktrees
// on branches, a detached one, one whose directory is gone, a branch
// switched in the main worktree, a path reached through a symlink.
func TestCheckedOutReadsWhatGitLists(t *testing.T) {
	g := gitx.New(gitx.WithEnv(identity...))
	real := newRepo(t)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	repo := link
	check := func(step string) {
		t.Helper()
		common, err := g.CommonDir(ctx(t), repo)
		if err != nil {
			t.Fatal(err)
		}
		want, err := g.Worktrees(ctx(t), repo)
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.CheckedOut(ctx(t), repo, common)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v", step, got)
		sameList(t, got, lite(want))
	}
	check("main only")
	wts := t.TempDir()
	sh(t, repo, "worktree", "add", "-q", "-b", "one", filepath.Join(wts, "one"))
	sh(t, repo, "worktree", "add", "-q", "--detach", filepath.Join(wts, "two"))
	sh(t, repo, "worktree", "add", "-q", "-b", "three", filepath.Join(wts, "three"))
	check("three linked")
	if err := os.RemoveAll(filepath.Join(wts, "three")); err != nil {
		t.Fatal(err)
	}
	check("one directory gone")
	sh(t, repo, "switch", "-q", "-c", "other")
	check("main switched")
	sh(t, repo, "switch", "-q", "--detach")
	check("main detached")
}

// TestCheckedOutBareAsksGit: a bare repository's worktrees are listed by
// git (the layout without a .git directory is not read by hand).
func TestCheckedOutBareAsksGit(t *testing.T) {
	g := gitx.New(gitx.WithEnv(identity...))
	src := newRepo(t)
	bare := filepath.Join(t.TempDir(), "b.git")
	sh(t, src, "clone", "-q", "--bare", src, bare)
	sh(t, bare, "worktree", "add", "-q", filepath.Join(t.TempDir(), "w"), "main")
	common, err := g.CommonDir(ctx(t), bare)
	if err != nil {
		t.Fatal(err)
	}
	got, err := g.CheckedOut(ctx(t), bare, common)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := g.Worktrees(ctx(t), bare)
	sameList(t, lite(got), lite(want))
	if !got[0].Bare || got[1].Branch != "refs/heads/main" {
		t.Fatalf("bare repository listed as %+v", got)
	}
}

// TestCommonDirFollowsTheDisk: a cached common directory is not given for
// a repository removed and made again elsewhere at the same path, nor for
// one removed.
func TestCommonDirFollowsTheDisk(t *testing.T) {
	g := gitx.New(gitx.WithEnv(identity...))
	main := newRepo(t)
	wt := filepath.Join(t.TempDir(), "wt")
	sh(t, main, "worktree", "add", "-q", "-b", "w", wt)
	common, err := g.CommonDir(ctx(t), wt)
	if err != nil || common != filepath.Join(main, ".git") {
		t.Fatalf("CommonDir(worktree) = %q, %v", common, err)
	}
	if again, _ := g.CommonDir(ctx(t), wt); again != common {
		t.Fatalf("second CommonDir = %q, want %q", again, common)
	}
	// The worktree's directory becomes a repository of its own.
	sh(t, main, "worktree", "remove", "--force", wt)
	if err := os.MkdirAll(wt, 0o755); err != nil {
		t.Fatal(err)
	}
	sh(t, wt, "init", "-q", "-b", "main")
	if got, err := g.CommonDir(ctx(t), wt); err != nil || got != filepath.Join(wt, ".git") {
		t.Fatalf("CommonDir after re-init = %q, %v; want %s", got, err, filepath.Join(wt, ".git"))
	}
	// The repository is gone: git's answer (not a repository) again.
	if err := os.RemoveAll(filepath.Join(wt, ".git")); err != nil {
		t.Fatal(err)
	}
	if got, err := g.CommonDir(ctx(t), wt); err == nil {
		t.Fatalf("CommonDir of a removed repository = %q, want an error", got)
	}
}
