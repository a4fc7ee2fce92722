package review

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

var identity = []string{
	"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
	"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com",
	"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
}

// TestMain keeps the user's git configuration out of every git call of
// the tests, the service's included.
func TestMain(m *testing.M) {
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	if os.Getenv(helperEnv) != "" {
		os.Exit(helperMain())
	}
	os.Exit(m.Run())
}

var fixedNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func newService(t testing.TB) *Service {
	t.Helper()
	return New(gitx.New(), func() time.Time { return fixedNow }, WithJournal(NewJournal(t.TempDir(), "")))
}

// sh runs git directly (not through gitx) to set up and inspect fixtures.
func sh(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := shErr(dir, args...)
	if err != nil {
		t.Fatalf("git %q: %v\n%s", args, err, out)
	}
	return out
}

func shErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), identity...)
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// newRepo makes a repository on main with a.txt and b.txt committed.
func newRepo(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	sh(t, dir, "init", "-q", "-b", "main")
	write(t, filepath.Join(dir, "a.txt"), "one\ntwo\nthree\n")
	write(t, filepath.Join(dir, "b.txt"), "bee\n")
	sh(t, dir, "add", "-A")
	sh(t, dir, "commit", "-qm", "first")
	return dir
}

func commitAll(t testing.TB, dir, msg string) string {
	t.Helper()
	sh(t, dir, "add", "-A")
	sh(t, dir, "commit", "-qm", msg)
	return sh(t, dir, "rev-parse", "HEAD")
}

// taskWorktree adds the task's worktree at a new branch boof-runner/<id>
// from main and returns its directory.
func taskWorktree(t testing.TB, repo, id string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), id)
	sh(t, repo, "worktree", "add", "-q", "-b", TaskBranch(id), dir, "main")
	return dir
}

func rev(t testing.TB, dir, r string) string {
	t.Helper()
	return sh(t, dir, "rev-parse", "--verify", r)
}

// snapshot is the state that a refused operation must leave unchanged.
type snapshot struct {
	refs, status, head string
}

func snap(t testing.TB, repo string) snapshot {
	t.Helper()
	return snapshot{
		refs:   sh(t, repo, "for-each-ref", "--format=%(refname) %(objectname)"),
		status: sh(t, repo, "status", "--porcelain=v1", "--untracked-files=all"),
		head:   sh(t, repo, "rev-parse", "HEAD") + " " + sh(t, repo, "rev-parse", "--symbolic-full-name", "HEAD"),
	}
}

func (a snapshot) same(t testing.TB, repo string) {
	t.Helper()
	if b := snap(t, repo); a != b {
		t.Fatalf("repository changed:\nbefore %+v\nafter  %+v", a, b)
	}
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}

// recorder records what the service reports; fail makes it refuse.
type recorder struct {
	accepts, undos []AcceptRecord
	fail           error
}

func (r *recorder) RecordAccept(_ context.Context, _ string, a AcceptRecord) error {
	if r.fail != nil {
		return r.fail
	}
	r.accepts = append(r.accepts, a)
	return nil
}

func (r *recorder) RecordUndo(_ context.Context, _ string, a AcceptRecord) error {
	if r.fail != nil {
		return r.fail
	}
	r.undos = append(r.undos, a)
	return nil
}

var errStore = errors.New("store refused")
