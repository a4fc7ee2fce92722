package gitx_test

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

func TestResolveCommit(t *testing.T) {
	repo := newRepo(t)
	head := sh(t, repo, "rev-parse", "HEAD")
	sh(t, repo, "tag", "-a", "-m", "t", "v1")
	g := gitx.New()
	for _, tc := range []struct {
		rev  string
		want string
		err  error
	}{
		{"HEAD", head, nil},
		{"main", head, nil},
		{"v1", head, nil}, // annotated tag peels to its commit
		{head[:10], head, nil},
		{"-rf", "", gitx.ErrBadRev},
		{"--all", "", gitx.ErrBadRev},
		{"", "", gitx.ErrBadRev},
		{"main\nHEAD", "", gitx.ErrBadRev},
		{"HEAD~99999", "", gitx.ErrUnknownRef},
		{"../x", "", gitx.ErrUnknownRef},
		{"nope", "", gitx.ErrUnknownRef},
		{"HEAD:a.txt", "", gitx.ErrUnknownRef}, // a blob is not a commit
	} {
		t.Run(tc.rev, func(t *testing.T) {
			got, err := g.ResolveCommit(ctx(t), repo, tc.rev)
			if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil && err != nil) {
				t.Fatalf("ResolveCommit(%q) = %q, %v; want %q, %v", tc.rev, got, err, tc.want, tc.err)
			}
		})
	}
	empty := t.TempDir()
	sh(t, empty, "init", "-q")
	if _, err := g.ResolveCommit(ctx(t), empty, "HEAD"); !errors.Is(err, gitx.ErrUnknownRef) {
		t.Fatalf("HEAD of empty repo: %v", err)
	}
	if _, err := g.ResolveCommit(ctx(t), t.TempDir(), "HEAD"); !errors.Is(err, gitx.ErrNotARepo) {
		t.Fatalf("outside a repo: %v", err)
	}
}

func TestRefSHA(t *testing.T) {
	repo := newRepo(t)
	g := gitx.New()
	sha, ok, err := g.RefSHA(ctx(t), repo, "refs/heads/main")
	if err != nil || !ok || sha != sh(t, repo, "rev-parse", "HEAD") {
		t.Fatalf("RefSHA(main) = %q %v %v", sha, ok, err)
	}
	if _, ok, err := g.RefSHA(ctx(t), repo, "refs/heads/none"); ok || err != nil {
		t.Fatalf("RefSHA(none) = %v %v", ok, err)
	}
	if _, _, err := g.RefSHA(ctx(t), repo, "-x"); !errors.Is(err, gitx.ErrBadRev) {
		t.Fatalf("RefSHA(-x) = %v", err)
	}
}

func TestUpdateRefCompareAndSwap(t *testing.T) {
	repo := newRepo(t)
	g := gitx.New()
	one := sh(t, repo, "rev-parse", "HEAD")
	write(t, filepath.Join(repo, "a.txt"), "two\n")
	sh(t, repo, "commit", "-qam", "second")
	two := sh(t, repo, "rev-parse", "HEAD")

	if err := g.UpdateRef(ctx(t), repo, "refs/heads/x", one, "", "create"); err != nil {
		t.Fatalf("create: %v", err)
	}
	if err := g.UpdateRef(ctx(t), repo, "refs/heads/x", two, "", ""); !errors.Is(err, gitx.ErrRefMoved) {
		t.Fatalf("create over existing: %v, want ErrRefMoved", err)
	}
	if err := g.UpdateRef(ctx(t), repo, "refs/heads/x", one, two, ""); !errors.Is(err, gitx.ErrRefMoved) {
		t.Fatalf("stale old value: %v, want ErrRefMoved", err)
	}
	if got := sh(t, repo, "rev-parse", "refs/heads/x"); got != one {
		t.Fatalf("lost CAS moved the ref to %s", got)
	}
	if err := g.UpdateRef(ctx(t), repo, "refs/heads/y", one, two, ""); !errors.Is(err, gitx.ErrRefMoved) {
		t.Fatalf("missing ref with expected value: %v, want ErrRefMoved", err)
	}
	if err := g.UpdateRef(ctx(t), repo, "refs/heads/x", two, one, "move"); err != nil {
		t.Fatalf("move: %v", err)
	}
	if err := g.DeleteRef(ctx(t), repo, "refs/heads/x", one); !errors.Is(err, gitx.ErrRefMoved) {
		t.Fatalf("delete with stale value: %v", err)
	}
	if err := g.DeleteRef(ctx(t), repo, "refs/heads/x", two); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, ok, _ := g.RefSHA(ctx(t), repo, "refs/heads/x"); ok {
		t.Fatal("ref still exists after delete")
	}
	for _, bad := range []string{"x", "-d", "refs/heads/a\nb"} {
		if err := g.UpdateRef(ctx(t), repo, bad, one, "", ""); !errors.Is(err, gitx.ErrBadRev) {
			t.Errorf("UpdateRef(%q) = %v, want ErrBadRev", bad, err)
		}
	}
	if err := g.UpdateRef(ctx(t), repo, "refs/heads/z", "-f", "", ""); !errors.Is(err, gitx.ErrBadRev) {
		t.Errorf("new value -f: %v", err)
	}
}

func TestWriteTreeCommitTreeWithTemporaryIndex(t *testing.T) {
	repo := newRepo(t)
	g := gitx.New()
	head := sh(t, repo, "rev-parse", "HEAD")
	write(t, filepath.Join(repo, "new file.txt"), "n\n")
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "idx")}
	if _, err := g.RunEnv(ctx(t), repo, env, "add", "-A"); err != nil {
		t.Fatal(err)
	}
	tree, err := g.WriteTree(ctx(t), repo, env)
	if err != nil {
		t.Fatal(err)
	}
	msg := "leftovers\n\n-- with \"quotes\" and a line starting with -p\n"
	c, err := g.CommitTree(ctx(t), repo, gitx.Commit{Tree: tree, Parents: []string{head}, Message: msg, Env: identity})
	if err != nil {
		t.Fatal(err)
	}
	if got := sh(t, repo, "log", "-1", "--format=%B", c); got != strings.TrimSpace(msg) {
		t.Fatalf("message = %q", got)
	}
	if got := sh(t, repo, "rev-parse", c+"^"); got != head {
		t.Fatalf("parent = %s", got)
	}
	if got := sh(t, repo, "ls-tree", "--name-only", c); got != "a.txt\nnew file.txt" {
		t.Fatalf("tree = %q", got)
	}
	if got := sh(t, repo, "status", "--porcelain"); got != "?? \"new file.txt\"" {
		t.Fatalf("the real index changed: %q", got)
	}
	if _, err := g.CommitTree(ctx(t), repo, gitx.Commit{Tree: strings.Repeat("0", 40), Message: "x", Env: identity}); err == nil {
		t.Fatal("commit of a missing tree succeeded")
	}
}

func TestMergeTree(t *testing.T) {
	repo := newRepo(t)
	g := gitx.New()
	sh(t, repo, "branch", "other")
	write(t, filepath.Join(repo, "a.txt"), "main\n")
	write(t, filepath.Join(repo, "m.txt"), "m\n")
	sh(t, repo, "add", "-A")
	sh(t, repo, "commit", "-qm", "main side")
	sh(t, repo, "checkout", "-q", "other")
	write(t, filepath.Join(repo, "o.txt"), "o\n")
	sh(t, repo, "add", "-A")
	sh(t, repo, "commit", "-qm", "clean side")

	res, err := g.MergeTree(ctx(t), repo, "main", "other")
	if err != nil || len(res.Conflicts) != 0 {
		t.Fatalf("clean merge: %+v %v", res, err)
	}
	if got := sh(t, repo, "ls-tree", "--name-only", res.Tree); got != "a.txt\nm.txt\no.txt" {
		t.Fatalf("merged tree = %q", got)
	}
	write(t, filepath.Join(repo, "a.txt"), "other\n")
	sh(t, repo, "commit", "-qam", "conflicting side")
	res, err = g.MergeTree(ctx(t), repo, "main", "other")
	if !errors.Is(err, gitx.ErrConflict) || !reflect.DeepEqual(res.Conflicts, []string{"a.txt"}) || res.Tree == "" {
		t.Fatalf("conflict: %+v %v", res, err)
	}
	if _, err := g.MergeTree(ctx(t), repo, "main", "nope"); err == nil || errors.Is(err, gitx.ErrConflict) {
		t.Fatalf("unknown side: %v", err)
	}
	if _, err := g.MergeTree(ctx(t), repo, "--stdin", "main"); !errors.Is(err, gitx.ErrBadRev) {
		t.Fatalf("option as side: %v", err)
	}
}

func TestRevList(t *testing.T) {
	repo := newRepo(t)
	write(t, filepath.Join(repo, "a.txt"), "two\n")
	sh(t, repo, "commit", "-qam", "second")
	got, err := gitx.New().RevList(ctx(t), repo, "--reverse", "HEAD")
	if err != nil || len(got) != 2 || got[1] != sh(t, repo, "rev-parse", "HEAD") {
		t.Fatalf("RevList = %v %v", got, err)
	}
	if _, err := gitx.New().RevList(ctx(t), repo, "nope"); !errors.Is(err, gitx.ErrUnknownRef) {
		t.Fatalf("RevList(nope) = %v", err)
	}
}

func TestWorktrees(t *testing.T) {
	repo := newRepo(t)
	linked := filepath.Join(t.TempDir(), "wt with space")
	sh(t, repo, "worktree", "add", "-q", "-b", "side", linked)
	gone := filepath.Join(t.TempDir(), "gone")
	sh(t, repo, "worktree", "add", "-q", "--detach", gone)
	if err := removeAll(gone); err != nil {
		t.Fatal(err)
	}
	list, err := gitx.New().Worktrees(ctx(t), linked)
	if err != nil || len(list) != 3 {
		t.Fatalf("Worktrees = %+v %v", list, err)
	}
	if list[0].Path != repo || list[0].Branch != "refs/heads/main" {
		t.Errorf("main entry = %+v", list[0])
	}
	if list[1].Path != linked || list[1].Branch != "refs/heads/side" || list[1].Head == "" {
		t.Errorf("linked entry = %+v", list[1])
	}
	if list[2].Path != gone || !list[2].Detached || !list[2].Prunable {
		t.Errorf("deleted entry = %+v", list[2])
	}
}

func TestSplitNUL(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a\x00", []string{"a"}},
		{"a\x00b", []string{"a", "b"}},
		{"a\x00\x00b\x00", []string{"a", "", "b"}},
		{"new\nline\x00-dash\x00", []string{"new\nline", "-dash"}},
	} {
		if got := gitx.SplitNUL([]byte(tc.in)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SplitNUL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestStatus(t *testing.T) {
	repo := newRepo(t)
	g := gitx.New()
	if list, err := g.Status(ctx(t), repo); err != nil || len(list) != 0 {
		t.Fatalf("clean status = %+v %v", list, err)
	}
	sh(t, repo, "mv", "--", "a.txt", "-moved\nname")
	write(t, filepath.Join(repo, "new file ✓"), "n\n")
	list, err := g.Status(ctx(t), repo)
	want := []gitx.Change{
		{X: 'R', Y: ' ', Path: "-moved\nname", OrigPath: "a.txt"},
		{X: '?', Y: '?', Path: "new file ✓"},
	}
	if err != nil || !reflect.DeepEqual(list, want) {
		t.Fatalf("status = %+v %v", list, err)
	}
	if _, err := g.Status(ctx(t), filepath.Join(repo, "gone")); !errors.Is(err, gitx.ErrNoDir) || errors.Is(err, gitx.ErrNotARepo) {
		t.Fatalf("missing dir: %v", err)
	}
}

// UpdateRefs moves every ref or none: one stale old value (or a ref that
// must not exist but does) leaves all of them as they were.
func TestUpdateRefsAllOrNothing(t *testing.T) {
	repo := newRepo(t)
	g := gitx.New()
	one := sh(t, repo, "rev-parse", "HEAD")
	write(t, filepath.Join(repo, "a.txt"), "two\n")
	sh(t, repo, "commit", "-qam", "second")
	two := sh(t, repo, "rev-parse", "HEAD")
	sh(t, repo, "update-ref", "refs/heads/b", one)

	for name, ups := range map[string][]gitx.RefUpdate{
		"stale old value": {{Ref: "refs/keep/1", New: one}, {Ref: "refs/heads/b", New: two, Old: two}},
		"must not exist":  {{Ref: "refs/heads/b", New: two, Old: one}, {Ref: "refs/heads/main", New: one}},
	} {
		if err := g.UpdateRefs(ctx(t), repo, "test", ups); !errors.Is(err, gitx.ErrRefMoved) {
			t.Fatalf("%s: %v, want ErrRefMoved", name, err)
		}
		if got := sh(t, repo, "rev-parse", "refs/heads/b"); got != one {
			t.Fatalf("%s: b moved to %s", name, got)
		}
		if _, ok, _ := g.RefSHA(ctx(t), repo, "refs/keep/1"); ok {
			t.Fatalf("%s: refs/keep/1 was created", name)
		}
	}
	if err := g.UpdateRefs(ctx(t), repo, "test", []gitx.RefUpdate{{Ref: "refs/keep/1", New: one}, {Ref: "refs/heads/b", New: two, Old: one}}); err != nil {
		t.Fatal(err)
	}
	if sh(t, repo, "rev-parse", "refs/heads/b") != two || sh(t, repo, "rev-parse", "refs/keep/1") != one {
		t.Fatal("the refs were not both moved")
	}
	if err := g.UpdateRefs(ctx(t), repo, "", []gitx.RefUpdate{{Ref: "refs/heads/c", New: "-x"}}); !errors.Is(err, gitx.ErrBadRev) {
		t.Fatalf("bad new value: %v", err)
	}
}
