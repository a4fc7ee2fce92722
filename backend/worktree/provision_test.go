package worktree_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

func TestProvisionNewWorktree(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	head := sh(t, repo, "rev-parse", "HEAD")
	var rec recorder
	wt, err := newManager().Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t1"}, rec.log)
	if err != nil {
		t.Fatal(err)
	}
	wantDir := filepath.Join(repo, ".boof-runner-worktrees", "t1")
	if !wt.Isolated || wt.Dir != wantDir || wt.WorkDir != wantDir || wt.Branch != "boof-runner/t1" ||
		wt.BaseRef != "HEAD" || wt.BaseSHA != head || wt.Reused || wt.Repo != repo || wt.Warning != "" {
		t.Fatalf("worktree = %+v", wt)
	}
	if got := sh(t, wt.Dir, "rev-parse", "--abbrev-ref", "HEAD"); got != "boof-runner/t1" {
		t.Fatalf("worktree branch = %q", got)
	}
	if !rec.has("base HEAD → " + head) {
		t.Fatalf("log lacks base line:\n%s", rec.String())
	}
	meta, ok, err := worktree.ReadMeta(wt.Root, "t1")
	if err != nil || !ok || meta.BaseSHA != head || meta.BaseRef != "HEAD" || meta.Branch != "boof-runner/t1" ||
		meta.TaskID != "t1" || !meta.Created.Equal(fixed) {
		t.Fatalf("meta = %+v %v %v", meta, ok, err)
	}
	exclude, _ := os.ReadFile(filepath.Join(repo, ".git", "info", "exclude"))
	if !strings.Contains(string(exclude), "\n/.boof-runner-worktrees/\n") {
		t.Fatalf("exclude = %q", exclude)
	}
	if got := sh(t, repo, "status", "--porcelain", "--untracked-files=all"); got != "" {
		t.Fatalf("user's git status shows the worktrees: %q", got)
	}
	// A second task adds no second exclude line.
	if _, err := newManager().Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t2"}, rec.log); err != nil {
		t.Fatal(err)
	}
	exclude2, _ := os.ReadFile(filepath.Join(repo, ".git", "info", "exclude"))
	if strings.Count(string(exclude2), "/.boof-runner-worktrees/") != 1 {
		t.Fatalf("exclude after second task = %q", exclude2)
	}
}

func TestProvisionBaseRef(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	first := sh(t, repo, "rev-parse", "HEAD")
	sh(t, repo, "branch", "feature")
	write(t, filepath.Join(repo, "b.txt"), "b\n")
	commitAll(t, repo, "second")
	for _, base := range []string{"feature", first[:12], "HEAD~1"} {
		t.Run(base, func(t *testing.T) {
			t.Parallel()
			var rec recorder
			id := "base-" + strings.NewReplacer("~", "-").Replace(base)
			wt, err := newManager().Provision(t.Context(), worktree.Request{Repo: repo, TaskID: id, Base: base}, rec.log)
			if err != nil {
				t.Fatal(err)
			}
			if wt.BaseSHA != first || wt.BaseRef != base || sh(t, wt.Dir, "rev-parse", "HEAD") != first {
				t.Fatalf("worktree = %+v", wt)
			}
			if !rec.has("base " + base + " → " + first) {
				t.Fatalf("log:\n%s", rec.String())
			}
		})
	}
}

func TestProvisionUnknownBase(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	for _, base := range []string{"-rf", "HEAD~99999", "../x", "nope", "--all", "main\nHEAD", "HEAD:a.txt"} {
		t.Run(base, func(t *testing.T) {
			t.Parallel()
			_, err := newManager().Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t", Base: base}, tlog(t))
			var ube *worktree.UnknownBaseError
			if !errors.As(err, &ube) {
				t.Fatalf("err = %v, want *UnknownBaseError", err)
			}
			want := "unknown base ref '" + base + "': not a branch or commit in " + repo
			if err.Error() != want {
				t.Fatalf("message = %q, want %q", err.Error(), want)
			}
			if branchExists(t, repo, "boof-runner/t") || exists(filepath.Join(repo, ".boof-runner-worktrees")) {
				t.Fatal("a branch or directory was created")
			}
		})
	}
}

func TestProvisionEmptyRepo(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	sh(t, repo, "init", "-q")
	_, err := newManager().Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t"}, tlog(t))
	if !errors.Is(err, worktree.ErrNoCommits) {
		t.Fatalf("err = %v, want ErrNoCommits", err)
	}
	_, err = newManager().Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t", Base: "main"}, tlog(t))
	var ube *worktree.UnknownBaseError
	if !errors.As(err, &ube) {
		t.Fatalf("with base: err = %v, want *UnknownBaseError", err)
	}
	if exists(filepath.Join(repo, ".boof-runner-worktrees")) {
		t.Fatal("root created in an empty repo")
	}
}

func TestProvisionDetachedHead(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	first := sh(t, repo, "rev-parse", "HEAD")
	write(t, filepath.Join(repo, "b.txt"), "b\n")
	commitAll(t, repo, "second")
	sh(t, repo, "checkout", "-q", "--detach", first)
	wt, err := newManager().Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t"}, tlog(t))
	if err != nil || wt.BaseSHA != first || sh(t, wt.Dir, "rev-parse", "HEAD") != first {
		t.Fatalf("worktree = %+v, %v; want base %s", wt, err, first)
	}
}

func TestProvisionReuseIgnoresBase(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t"}, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Dir, "work.txt"), "w\n")
	head := commitAll(t, wt.Dir, "agent work")
	write(t, filepath.Join(wt.Dir, "scratch.txt"), "uncommitted\n")
	sh(t, repo, "branch", "other")
	var rec recorder
	again, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t", Base: "other"}, rec.log)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Reused || again.Dir != wt.Dir || again.BaseSHA != wt.BaseSHA || again.BaseRef != "HEAD" {
		t.Fatalf("reused = %+v", again)
	}
	if !rec.has("base 'other' ignored: reusing existing branch boof-runner/t") {
		t.Fatalf("log:\n%s", rec.String())
	}
	if sh(t, again.Dir, "rev-parse", "HEAD") != head || !exists(filepath.Join(again.Dir, "scratch.txt")) {
		t.Fatal("reuse disturbed the worktree")
	}
}

func TestProvisionReuseRebuildsDeletedDir(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	wt, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t"}, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Dir, "work.txt"), "w\n")
	head := commitAll(t, wt.Dir, "agent work")
	if err := os.RemoveAll(wt.Dir); err != nil {
		t.Fatal(err)
	}
	var rec recorder
	again, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t"}, rec.log)
	if err != nil {
		t.Fatalf("rebuild: %v\n%s", err, rec.String())
	}
	if !again.Reused || sh(t, again.Dir, "rev-parse", "HEAD") != head || !exists(filepath.Join(again.Dir, "work.txt")) {
		t.Fatalf("rebuilt = %+v", again)
	}
	if !rec.has("is missing: rebuilding it from branch boof-runner/t") || !rec.has("recreated from retained branch") {
		t.Fatalf("log:\n%s", rec.String())
	}
}

func TestProvisionReuseWithoutMetaUsesMergeBase(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	base := sh(t, repo, "rev-parse", "HEAD")
	m := newManager()
	wt, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t"}, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(wt.Dir, "w.txt"), "w\n")
	commitAll(t, wt.Dir, "work")
	write(t, filepath.Join(repo, "m.txt"), "m\n")
	commitAll(t, repo, "main moved on")
	if err := os.Remove(filepath.Join(wt.Root, ".meta", "t.json")); err != nil {
		t.Fatal(err)
	}
	var rec recorder
	again, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t"}, rec.log)
	if err != nil || again.BaseSHA != base || !rec.has("meta sidecar missing") {
		t.Fatalf("reuse = %+v %v\n%s", again, err, rec.String())
	}
	if meta, ok, _ := worktree.ReadMeta(wt.Root, "t"); !ok || meta.BaseSHA != base {
		t.Fatalf("meta not rewritten: %+v", meta)
	}
}

func TestProvisionUnregisteredDir(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	dir := filepath.Join(repo, ".boof-runner-worktrees", "t")
	write(t, filepath.Join(dir, "precious.txt"), "mine\n")
	_, err := newManager().Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t"}, tlog(t))
	if !errors.Is(err, worktree.ErrUnregisteredDir) {
		t.Fatalf("err = %v, want ErrUnregisteredDir", err)
	}
	if branchExists(t, repo, "boof-runner/t") {
		t.Fatal("branch created")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "precious.txt")); string(b) != "mine\n" {
		t.Fatal("directory touched")
	}
	// Also when the branch exists (a retry) but the directory is foreign.
	sh(t, repo, "branch", "boof-runner/t")
	_, err = newManager().Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t"}, tlog(t))
	if !errors.Is(err, worktree.ErrUnregisteredDir) {
		t.Fatalf("retry: err = %v, want ErrUnregisteredDir", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory touched on retry: %v", entries)
	}
}

func TestProvisionBranchCheckedOutElsewhere(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	other := filepath.Join(t.TempDir(), "elsewhere")
	sh(t, repo, "worktree", "add", "-q", "-b", "boof-runner/t", other)
	_, err := newManager().Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t"}, tlog(t))
	if !errors.Is(err, worktree.ErrBranchInUse) {
		t.Fatalf("err = %v, want ErrBranchInUse", err)
	}
}

func TestProvisionNotAGitRepo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var rec recorder
	wt, err := newManager().Provision(t.Context(), worktree.Request{Repo: dir, TaskID: "t"}, rec.log)
	if err != nil {
		t.Fatal(err)
	}
	if wt.Isolated || wt.Dir != dir || wt.WorkDir != dir || wt.Warning != worktree.NotGitWarning || !rec.has("warn: WARNING: working directory is not a git repository") {
		t.Fatalf("worktree = %+v\n%s", wt, rec.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("created files in a non-git directory: %v", entries)
	}
	_, err = newManager().Provision(t.Context(), worktree.Request{Repo: dir, TaskID: "t", Base: "main"}, rec.log)
	var ube *worktree.UnknownBaseError
	if !errors.As(err, &ube) {
		t.Fatalf("base in a non-git dir: %v", err)
	}
	rep, err := newManager().Finish(t.Context(), wt, worktree.OutcomeDone, worktree.Policy{}, rec.log)
	if err != nil || rep.Branch != "" || rep.DirRemoved {
		t.Fatalf("finish of unisolated task = %+v %v", rep, err)
	}
	if !exists(dir) {
		t.Fatal("finish removed the working directory")
	}
}

func TestProvisionBadInput(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	m := newManager()
	for _, id := range []string{"", "-rf", "../x", "a/b", "a..b", "x.lock", "x--leftovers", "a b", "ü", strings.Repeat("a", 101), "x."} {
		if _, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: id}, tlog(t)); !errors.Is(err, worktree.ErrBadTaskID) {
			t.Errorf("task id %q: err = %v, want ErrBadTaskID", id, err)
		}
	}
	if _, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t", Root: "~bob/wt"}, tlog(t)); !errors.Is(err, worktree.ErrBadRoot) {
		t.Errorf("~bob root: %v", err)
	}
	if _, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t", Root: "."}, tlog(t)); !errors.Is(err, worktree.ErrBadRoot) {
		t.Errorf("root = repo: %v", err)
	}
	if _, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t", Root: ".git/wt"}, tlog(t)); !errors.Is(err, worktree.ErrBadRoot) {
		t.Errorf("root in .git: %v", err)
	}
	if _, err := m.Provision(t.Context(), worktree.Request{Repo: filepath.Join(repo, "nope"), TaskID: "t"}, tlog(t)); !errors.Is(err, worktree.ErrNoWorkDir) {
		t.Errorf("missing working dir: %v", err)
	}
	if got := sh(t, repo, "branch", "--list", "boof-runner/*"); got != "" {
		t.Fatalf("bad input created branches: %q", got)
	}
	if exists(filepath.Join(repo, ".boof-runner-worktrees")) {
		t.Fatal("bad input created the root")
	}
}

func TestResolveRoot(t *testing.T) {
	t.Parallel()
	m := worktree.NewManager(gitx.New(), nil, worktree.WithHome(func() (string, error) { return "/home/u", nil }))
	for _, tc := range []struct{ root, want string }{
		{"", "/w/.boof-runner-worktrees"},
		{"wt", "/w/wt"},
		{"../wt", "/wt"},
		{"/abs/wt", "/abs/wt"},
		{"~/wt", "/home/u/wt"},
		{"~", "/home/u"},
	} {
		if got, err := m.ResolveRoot("/w", tc.root); err != nil || got != tc.want {
			t.Errorf("ResolveRoot(%q) = %q, %v; want %q", tc.root, got, err, tc.want)
		}
	}
	for _, bad := range []string{"~bob", "a\nb"} {
		if _, err := m.ResolveRoot("/w", bad); !errors.Is(err, worktree.ErrBadRoot) {
			t.Errorf("ResolveRoot(%q) = %v, want ErrBadRoot", bad, err)
		}
	}
}

func TestProvisionRootOutsideRepoAndHome(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	home := t.TempDir()
	m := worktree.NewManager(gitx.New(gitx.WithEnv(identity...)), func() time.Time { return fixed }, worktree.WithHome(func() (string, error) { return home, nil }))
	wt, err := m.Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t", Root: "~/boof"}, tlog(t))
	if err != nil || wt.Dir != filepath.Join(home, "boof", "t") || !exists(filepath.Join(home, "boof", ".meta", "t.json")) {
		t.Fatalf("worktree = %+v %v", wt, err)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, ".git", "info", "exclude")); strings.Contains(string(b), "boof") {
		t.Fatalf("outside root added to exclude: %q", b)
	}
}

func TestProvisionExcludeEscapesPattern(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	wt, err := newManager().Provision(t.Context(), worktree.Request{Repo: repo, TaskID: "t", Root: "sub/#wt [1]*"}, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(repo, "sub", "wt1x", "f.txt"), "must stay visible\n")
	b, _ := os.ReadFile(filepath.Join(repo, ".git", "info", "exclude"))
	if !strings.Contains(string(b), `/sub/#wt \[1\]\*/`) {
		t.Fatalf("exclude = %q", b)
	}
	if got := sh(t, repo, "status", "--porcelain", "--untracked-files=all"); got != "?? sub/wt1x/f.txt" {
		t.Fatalf("status = %q (worktree %s)", got, wt.Dir)
	}
}

func TestProvisionFromSubdirectory(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	write(t, filepath.Join(repo, "pkg", "x.go"), "package x\n")
	commitAll(t, repo, "pkg")
	wt, err := newManager().Provision(t.Context(), worktree.Request{Repo: filepath.Join(repo, "pkg"), TaskID: "t"}, tlog(t))
	if err != nil {
		t.Fatal(err)
	}
	if wt.Repo != repo || wt.Dir != filepath.Join(repo, "pkg", ".boof-runner-worktrees", "t") || wt.WorkDir != filepath.Join(wt.Dir, "pkg") {
		t.Fatalf("worktree = %+v", wt)
	}
	if !exists(filepath.Join(wt.WorkDir, "x.go")) {
		t.Fatal("work dir lacks the subdirectory's files")
	}
	if got := sh(t, repo, "status", "--porcelain", "--untracked-files=all"); got != "" {
		t.Fatalf("status = %q", got)
	}
}

func TestProvisionRelativeRepoPath(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(cwd, repo)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := newManager().Provision(t.Context(), worktree.Request{Repo: rel, TaskID: "t"}, tlog(t))
	if err != nil || !filepath.IsAbs(wt.Dir) || wt.Dir != filepath.Join(repo, ".boof-runner-worktrees", "t") {
		t.Fatalf("worktree = %+v %v", wt, err)
	}
}
