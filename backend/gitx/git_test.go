package gitx_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

func TestRunNotARepo(t *testing.T) {
	g := gitx.New()
	_, err := g.Run(ctx(t), t.TempDir(), "status")
	if !errors.Is(err, gitx.ErrNotARepo) {
		t.Fatalf("err = %v, want ErrNotARepo", err)
	}
	var ge *gitx.Error
	if !errors.As(err, &ge) || ge.ExitCode != 128 || ge.Args[0] != "status" || ge.Stderr == "" {
		t.Fatalf("error fields = %+v", ge)
	}
	if !strings.HasPrefix(err.Error(), "git status: exit 128: fatal: not a git repository") {
		t.Fatalf("message = %q", err.Error())
	}
}

func TestRunNoDir(t *testing.T) {
	if _, err := gitx.New().Run(ctx(t), "", "status"); !errors.Is(err, gitx.ErrNoDir) {
		t.Fatalf("err = %v, want ErrNoDir", err)
	}
}

func TestRunMissingBinary(t *testing.T) {
	g := gitx.New(gitx.WithBinary(filepath.Join(t.TempDir(), "no-git")))
	_, err := g.Run(ctx(t), t.TempDir(), "status")
	var ge *gitx.Error
	if err == nil || errors.As(err, &ge) {
		t.Fatalf("err = %v, want a start error", err)
	}
}

func TestRunCancelled(t *testing.T) {
	c, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := gitx.New().Run(c, newRepo(t), "status")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// The environment is explicit: C locale, no prompts, no pager, and an
// inherited GIT_DIR cannot redirect a call away from -C.
func TestRunEnvironment(t *testing.T) {
	repo := newRepo(t)
	other := newRepo(t)
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("LC_ALL", "de_DE.UTF-8")
	g := gitx.New(gitx.WithEnv("BOOF_TEST=1"))
	out, err := g.RunEnv(ctx(t), repo, []string{"BOOF_CALL=2"}, "-c", "alias.e=!env", "e")
	if err != nil {
		t.Fatal(err)
	}
	env := "\n" + string(out)
	for _, want := range []string{"\nLC_ALL=C\n", "\nGIT_TERMINAL_PROMPT=0\n", "\nGIT_PAGER=cat\n", "\nBOOF_TEST=1\n", "\nBOOF_CALL=2\n"} {
		if !strings.Contains(env, want) {
			t.Errorf("env lacks %q", strings.TrimSpace(want))
		}
	}
	if strings.Contains(env, other) {
		t.Errorf("inherited GIT_DIR leaked into the call")
	}
	top, err := g.TopLevel(ctx(t), repo)
	if err != nil || top != repo {
		t.Fatalf("TopLevel = %q, %v; want %q", top, err, repo)
	}
}

func TestRunStdoutWriter(t *testing.T) {
	repo := newRepo(t)
	var b strings.Builder
	out, err := gitx.New().Exec(ctx(t), gitx.Cmd{Dir: repo, Args: []string{"ls-files"}, Stdout: &b})
	if err != nil || len(out) != 0 || b.String() != "a.txt\n" {
		t.Fatalf("out=%q stream=%q err=%v", out, b.String(), err)
	}
}

func TestIndexLockRetrySucceedsOnceReleased(t *testing.T) {
	repo := newRepo(t)
	lock := filepath.Join(repo, ".git", "index.lock")
	write(t, lock, "")
	write(t, filepath.Join(repo, "b.txt"), "b\n")
	sleeps := 0
	g := gitx.New(gitx.WithLockRetry(3, time.Millisecond), gitx.WithSleep(func(context.Context, time.Duration) error {
		sleeps++
		return os.Remove(lock)
	}))
	if _, err := g.Run(ctx(t), repo, "add", "b.txt"); err != nil {
		t.Fatalf("add after lock released: %v", err)
	}
	if sleeps != 1 {
		t.Fatalf("sleeps = %d, want 1", sleeps)
	}
	if got := sh(t, repo, "ls-files"); got != "a.txt\nb.txt" {
		t.Fatalf("index = %q", got)
	}
}

func TestIndexLockRetryGivesUp(t *testing.T) {
	repo := newRepo(t)
	write(t, filepath.Join(repo, ".git", "index.lock"), "")
	write(t, filepath.Join(repo, "b.txt"), "b\n")
	var delays []time.Duration
	g := gitx.New(gitx.WithLockRetry(4, time.Millisecond), gitx.WithSleep(func(_ context.Context, d time.Duration) error {
		delays = append(delays, d)
		return nil
	}))
	_, err := g.Run(ctx(t), repo, "add", "b.txt")
	if !errors.Is(err, gitx.ErrIndexLocked) || errors.Is(err, gitx.ErrRefLocked) {
		t.Fatalf("err = %v, want ErrIndexLocked", err)
	}
	want := []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond}
	if len(delays) != len(want) || delays[0] != want[0] || delays[2] != want[2] {
		t.Fatalf("delays = %v, want %v", delays, want)
	}
}

func TestRefLockIsRetriedAndClassified(t *testing.T) {
	repo := newRepo(t)
	head := sh(t, repo, "rev-parse", "HEAD")
	write(t, filepath.Join(repo, ".git", "refs", "heads", "x.lock"), "")
	tries := 0
	g := gitx.New(gitx.WithLockRetry(2, time.Millisecond), gitx.WithSleep(func(context.Context, time.Duration) error {
		tries++
		return nil
	}))
	err := g.UpdateRef(ctx(t), repo, "refs/heads/x", head, "", "")
	if !errors.Is(err, gitx.ErrRefLocked) || errors.Is(err, gitx.ErrRefMoved) || tries != 1 {
		t.Fatalf("err = %v tries = %d, want ErrRefLocked after 1 retry", err, tries)
	}
}

func TestLockRepoSharedByLinkedWorktrees(t *testing.T) {
	repo := newRepo(t)
	linked := filepath.Join(t.TempDir(), "wt")
	sh(t, repo, "worktree", "add", "-q", "-b", "side", linked)
	g := gitx.New()
	unlock, err := g.LockRepo(ctx(t), repo)
	if err != nil {
		t.Fatal(err)
	}
	other, err := g.LockRepo(ctx(t), newRepo(t))
	if err != nil {
		t.Fatalf("another repository must have its own lock: %v", err)
	}
	other()

	// The linked worktree resolves to the same lock: while the main repository
	// holds it, a wait for it ends only with the waiter's context (no timing:
	// a lock that is not shared is taken at once and fails the test).
	commonLinked, err := g.CommonDir(ctx(t), linked)
	if err != nil {
		t.Fatal(err)
	}
	commonRepo, err := g.CommonDir(ctx(t), repo)
	if err != nil || filepath.Clean(commonLinked) != filepath.Clean(commonRepo) {
		t.Fatalf("common dirs %q and %q (%v)", commonLinked, commonRepo, err)
	}
	waiting, cancelWait := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		u, err := g.LockCommonDir(waiting, commonLinked)
		if err == nil {
			u()
		}
		errc <- err
	}()
	select {
	case err := <-errc:
		t.Fatalf("the linked worktree took the lock while the main repository held it (err %v)", err)
	case <-time.After(200 * time.Millisecond): // still waiting, as it must (a pass cannot come from here)
	}
	cancelWait()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("waiting lock after cancel: %v, want context.Canceled", err)
	}
	unlock()
	unlock() // a second call must not release someone else's hold
	u, err := g.LockRepo(ctx(t), linked)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	// The lock is held again: the main repository waits now.
	held, cancelHeld := context.WithCancel(context.Background())
	cancelHeld()
	if _, err := g.LockCommonDir(held, commonRepo); !errors.Is(err, context.Canceled) {
		t.Fatalf("main repository while the linked worktree holds the lock: %v", err)
	}
	u()
	if _, err := g.LockRepo(ctx(t), t.TempDir()); !errors.Is(err, gitx.ErrNotARepo) {
		t.Fatalf("lock outside a repo: %v", err)
	}
}

// The two ways a concurrent worktree add shows in git's words are both a
// race worth trying again; an unrelated failure to open a file is not.
func TestWorktreeRaceWords(t *testing.T) {
	for stderr, want := range map[string]bool{
		"fatal: failed to read worktree /r/.git/worktrees/c3/gitdir":                  true,
		"fatal: could not open '.git/worktrees/c13/locked' for writing: No such file": true,
		"fatal: not a git repository: /r/.git/worktrees/c11":                          true,
		"fatal: not a git repository (or any of the parent directories): .git":        false,
		"fatal: could not open 'notes.txt' for writing: Permission denied":            false,
		"fatal: invalid reference: main":                                              false,
	} {
		err := &gitx.Error{Args: []string{"worktree", "add"}, ExitCode: 128, Stderr: stderr}
		if got := errors.Is(err, gitx.ErrWorktreeRace); got != want {
			t.Errorf("%q: race = %v, want %v", stderr, got, want)
		}
	}
}
