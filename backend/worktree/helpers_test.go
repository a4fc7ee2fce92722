package worktree_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

var identity = []string{
	"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
	"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com",
	"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
}

var fixed = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func newManager(opts ...gitx.Option) *worktree.Manager {
	return worktree.NewManager(gitx.New(append([]gitx.Option{gitx.WithEnv(identity...)}, opts...)...), func() time.Time { return fixed })
}

// sh runs git directly (not through the package under test) for fixtures
// and checks.
func sh(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := shErr(dir, args...)
	if err != nil {
		t.Fatalf("git %q: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(out)
}

func shErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), identity...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// newRepo makes a repository on branch main with one commit holding a.txt
// and a .gitignore that ignores *.log.
func newRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	sh(t, dir, "init", "-q", "-b", "main")
	write(t, filepath.Join(dir, "a.txt"), "one\n")
	write(t, filepath.Join(dir, ".gitignore"), "*.log\n")
	sh(t, dir, "add", "-A")
	sh(t, dir, "commit", "-qm", "first")
	return dir
}

// commitAll commits everything in dir and returns the new HEAD.
func commitAll(t *testing.T, dir, msg string) string {
	t.Helper()
	sh(t, dir, "add", "-A")
	sh(t, dir, "commit", "-qm", msg)
	return sh(t, dir, "rev-parse", "HEAD")
}

func branchExists(t *testing.T, repo, branch string) bool {
	t.Helper()
	_, err := shErr(repo, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch)
	return err == nil
}

// lsTree returns "mode type path" lines of a commit's whole tree.
func lsTree(t *testing.T, repo, rev string) map[string]string {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "ls-tree", "-r", "-z", rev).Output()
	if err != nil {
		t.Fatalf("ls-tree %s: %v", rev, err)
	}
	m := map[string]string{}
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		meta, path, _ := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		m[path] = f[0] + " " + f[1]
	}
	return m
}

// recorder collects log lines.
type recorder struct {
	mu    sync.Mutex
	lines []string
}

// log records a line as "level: text".
func (r *recorder) log(level task.LogLevel, format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, string(level)+": "+fmt.Sprintf(format, args...))
}

// tlog is a worktree.Logf writing to the test's log.
func tlog(t testing.TB) worktree.Logf {
	return func(level task.LogLevel, format string, args ...any) {
		t.Helper()
		t.Logf(string(level)+": "+format, args...)
	}
}

func (r *recorder) has(sub string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range r.lines {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}

func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.lines, "\n")
}

// loggedManager is a manager whose git calls go through a wrapper that
// appends each call's arguments to the returned log file.
func loggedManager(t *testing.T) (*worktree.Manager, string) {
	t.Helper()
	log := filepath.Join(t.TempDir(), "git.log")
	wrapper := filepath.Join(t.TempDir(), "git")
	write(t, wrapper, "#!/bin/sh\nprintf '%s\\n' \"$*\" >> "+log+"\nexec git \"$@\"\n")
	if err := os.Chmod(wrapper, 0o755); err != nil {
		t.Fatal(err)
	}
	return newManager(gitx.WithBinary(wrapper)), log
}
