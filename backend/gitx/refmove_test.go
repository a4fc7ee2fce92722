package gitx_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
)

// blockingRefHook installs a reference-transaction hook that, at state
// ("prepared": the refs are locked, nothing moved; "committed": the refs
// moved), says so in the returned file and then waits until it is
// stopped, at most five minutes.
func blockingRefHook(t *testing.T, repo, state string) (reached string) {
	t.Helper()
	reached = filepath.Join(t.TempDir(), "reached")
	hook(t, repo, "reference-transaction", `[ "$1" = `+state+` ] || exit 0
echo $$ > "`+reached+`"
i=0
while [ $i -lt 6000 ]; do sleep 0.05; i=$((i+1)); done`)
	return reached
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// second makes a commit on top of main (not moving main) and returns it.
func second(t *testing.T, repo string) string {
	t.Helper()
	tree := sh(t, repo, "rev-parse", "main^{tree}")
	return sh(t, repo, "commit-tree", tree, "-p", "main", "-m", "second")
}

// A ref move cancelled while git runs is not cut short: here its hook
// hangs after the ref moved, so the move is stopped only at the end of the
// interrupt grace, and reading the ref back reports it done.
func TestRefMoveCancelledAfterTheRefMovedIsReportedDone(t *testing.T) {
	cases := []struct {
		name string
		move func(g *gitx.Git, ctx context.Context, repo, old, next string) error
		ref  string // what must hold next afterwards ("" for deleted)
	}{
		{"UpdateRef", func(g *gitx.Git, ctx context.Context, repo, old, next string) error {
			return g.UpdateRef(ctx, repo, "refs/heads/main", next, old, "test")
		}, "main"},
		{"UpdateRefs", func(g *gitx.Git, ctx context.Context, repo, old, next string) error {
			return g.UpdateRefs(ctx, repo, "test", []gitx.RefUpdate{{Ref: "refs/heads/main", New: next, Old: old}, {Ref: "refs/keep/x", New: old}})
		}, "main"},
		{"DeleteRef", func(g *gitx.Git, ctx context.Context, repo, old, next string) error {
			return g.DeleteRef(ctx, repo, "refs/heads/side", old)
		}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t)
			old := sh(t, repo, "rev-parse", "main")
			sh(t, repo, "branch", "side")
			next := second(t, repo)
			reached := blockingRefHook(t, repo, "committed")
			g := gitx.New(gitx.WithEnv(identity...), gitx.WithInterruptGrace(300*time.Millisecond), gitx.WithGrace(time.Second))
			c, cancel := context.WithCancel(ctx(t))
			done := make(chan error, 1)
			go func() { done <- tc.move(g, c, repo, old, next) }()
			waitFile(t, reached)
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("the move happened, but %s returned %v", tc.name, err)
			}
			if tc.ref == "" {
				if _, ok, _ := g.RefSHA(ctx(t), repo, "refs/heads/side"); ok {
					t.Fatal("side still exists")
				}
			} else if got := sh(t, repo, "rev-parse", tc.ref); got != next {
				t.Fatalf("%s = %s, want %s", tc.ref, got, next)
			}
		})
	}
}

// Cancelled while its hook holds the refs locked (nothing moved yet), the
// move is stopped at the end of the grace: it reports the failure, the ref
// stays and no lock is left behind.
func TestRefMoveStoppedBeforeTheRefMovedReportsIt(t *testing.T) {
	repo := newRepo(t)
	old := sh(t, repo, "rev-parse", "main")
	next := second(t, repo)
	reached := blockingRefHook(t, repo, "prepared")
	g := gitx.New(gitx.WithEnv(identity...), gitx.WithInterruptGrace(300*time.Millisecond), gitx.WithGrace(time.Second))
	c, cancel := context.WithCancel(ctx(t))
	done := make(chan error, 1)
	go func() { done <- g.UpdateRef(c, repo, "refs/heads/main", next, old, "test") }()
	waitFile(t, reached)
	cancel()
	if err := <-done; err == nil {
		t.Fatal("a move stopped before the ref moved reported success")
	}
	if got := sh(t, repo, "rev-parse", "main"); got != old {
		t.Fatalf("main = %s, want %s", got, old)
	}
	if err := os.Remove(filepath.Join(repo, ".git", "hooks", "reference-transaction")); err != nil {
		t.Fatal(err)
	}
	if err := g.UpdateRef(ctx(t), repo, "refs/heads/main", next, old, "test"); err != nil {
		t.Fatalf("the next move: %v", err)
	}
}

// A ref move whose context ended before it started does not start.
func TestRefMoveNotStartedAfterCancel(t *testing.T) {
	repo := newRepo(t)
	old := sh(t, repo, "rev-parse", "main")
	next := second(t, repo)
	g := gitx.New(gitx.WithEnv(identity...))
	c, cancel := context.WithCancel(ctx(t))
	cancel()
	checks := map[string]error{
		"UpdateRef":  g.UpdateRef(c, repo, "refs/heads/main", next, old, ""),
		"UpdateRefs": g.UpdateRefs(c, repo, "", []gitx.RefUpdate{{Ref: "refs/heads/main", New: next, Old: old}}),
		"DeleteRef":  g.DeleteRef(c, repo, "refs/heads/main", old),
		"SetHead":    g.SetHead(c, repo, "refs/heads/other", ""),
		"DetachHead": g.DetachHead(c, repo, next, ""),
	}
	for name, err := range checks {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s after cancel: %v, want context.Canceled", name, err)
		}
	}
	if got := sh(t, repo, "rev-parse", "main"); got != old {
		t.Fatalf("main = %s, want %s", got, old)
	}
	if got := sh(t, repo, "symbolic-ref", "HEAD"); got != "refs/heads/main" {
		t.Fatalf("HEAD = %s", got)
	}
}

func TestSetHeadAndDetachHead(t *testing.T) {
	repo := newRepo(t)
	next := second(t, repo)
	g := gitx.New(gitx.WithEnv(identity...))
	if err := g.DetachHead(ctx(t), repo, next, "test"); err != nil {
		t.Fatal(err)
	}
	if got := sh(t, repo, "rev-parse", "HEAD"); got != next {
		t.Fatalf("HEAD = %s, want %s", got, next)
	}
	if err := g.SetHead(ctx(t), repo, "refs/heads/main", "test"); err != nil {
		t.Fatal(err)
	}
	if got := sh(t, repo, "symbolic-ref", "HEAD"); got != "refs/heads/main" {
		t.Fatalf("HEAD = %s", got)
	}
	if err := g.SetHead(ctx(t), repo, "main", ""); !errors.Is(err, gitx.ErrBadRev) {
		t.Fatalf("a short name: %v", err)
	}
}

// Critical outlives its parent's cancellation by the interrupt grace.
func TestCriticalOutlivesCancelByTheGrace(t *testing.T) {
	long := gitx.New()
	parent, cancel := context.WithCancel(ctx(t))
	c, stop := long.Critical(parent)
	defer stop()
	cancel()
	if c.Err() != nil {
		t.Fatal("the critical context ended with its parent")
	}
	short := gitx.New(gitx.WithInterruptGrace(50 * time.Millisecond))
	c2, stop2 := short.Critical(parent)
	defer stop2()
	<-c2.Done() // ends once the grace is over
	c3, stop3 := long.Critical(ctx(t))
	stop3()
	if c3.Err() == nil {
		t.Fatal("cancel did not end the critical context")
	}
}

// waitFile waits until path exists (the test's deadline bounds it).
func waitFile(t *testing.T, path string) {
	t.Helper()
	for !exists(path) {
		if err := ctx(t).Err(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
