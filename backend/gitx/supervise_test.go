package gitx_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// hook installs an executable hook script in repo.
func hook(t *testing.T, repo, name, body string) {
	t.Helper()
	path := filepath.Join(repo, ".git", "hooks", name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// tagged lists the live processes carrying the test's step tag.
func tagged(t *testing.T, tag string) []proc.Tagged {
	t.Helper()
	ps, err := proc.FindTagged(tag)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func uniqueTag(t *testing.T) string {
	tag := proc.StepTag("gitxtest", proc.OwnerRun, fmt.Sprintf("%s-%d", strings.ReplaceAll(t.Name(), "/", "-"), time.Now().UnixNano()), "git")
	t.Cleanup(func() { _, _ = proc.KillTagged(tag, 100*time.Millisecond) })
	return tag
}

func TestHangingHookIsStoppedAtTheDeadline(t *testing.T) {
	repo := newRepo(t)
	hook(t, repo, "post-checkout", "sleep 300 &\nexec sleep 300")
	tag := uniqueTag(t)
	g := gitx.New(gitx.WithEnv(identity...), gitx.WithTimeout(500*time.Millisecond), gitx.WithGrace(300*time.Millisecond))
	c := gitx.WithCallEnv(ctx(t), proc.StepEnv+"="+tag)
	start := time.Now()
	_, err := g.Run(c, repo, "checkout", "-q", "-b", "other")
	if !errors.Is(err, gitx.ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("the hanging hook held the command for %s", d)
	}
	if left := tagged(t, tag); len(left) > 0 {
		t.Fatalf("survivors of the stopped command: %+v", left)
	}
}

func TestBackgroundJobOfAHookEndsWithTheCommand(t *testing.T) {
	repo := newRepo(t)
	hook(t, repo, "post-checkout", "sleep 300 >/dev/null 2>&1 &\nexit 0")
	tag := uniqueTag(t)
	g := gitx.New(gitx.WithEnv(identity...), gitx.WithGrace(300*time.Millisecond))
	c := gitx.WithCallEnv(ctx(t), proc.StepEnv+"="+tag)
	if _, err := g.Run(c, repo, "checkout", "-q", "-b", "other"); err != nil {
		t.Fatal(err)
	}
	if left := tagged(t, tag); len(left) > 0 {
		t.Fatalf("the hook's background job outlived the command: %+v", left)
	}
}

func TestCancelStopsTheWholeGroup(t *testing.T) {
	repo := newRepo(t)
	hook(t, repo, "post-checkout", "trap '' TERM\nsleep 300 &\nwait")
	tag := uniqueTag(t)
	g := gitx.New(gitx.WithEnv(identity...), gitx.WithGrace(300*time.Millisecond))
	c, cancel := context.WithCancel(gitx.WithCallEnv(ctx(t), proc.StepEnv+"="+tag))
	done := make(chan error, 1)
	go func() {
		_, err := g.Run(c, repo, "checkout", "-q", "-b", "other")
		done <- err
	}()
	deadline := time.Now().Add(20 * time.Second)
	for len(tagged(t, tag)) < 2 {
		if time.Now().After(deadline) {
			t.Fatal("hook never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if left := tagged(t, tag); len(left) > 0 {
		t.Fatalf("survivors after cancel (one ignores SIGTERM): %+v", left)
	}
}

func TestCallEnvReachesGit(t *testing.T) {
	repo := newRepo(t)
	hook(t, repo, "post-checkout", `echo "$BOOF_STEP" > seen`)
	g := gitx.New(gitx.WithEnv(identity...))
	c := gitx.WithCallEnv(gitx.WithCallEnv(ctx(t), "BOOF_STEP=first"), "BOOF_STEP=second")
	if _, err := g.Run(c, repo, "checkout", "-q", "-b", "other"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(repo, "seen"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(b)); got != "second" {
		t.Fatalf("hook saw BOOF_STEP=%q, want the later entry", got)
	}
}
