package host_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// newRepo returns a git repository with one commit on main.
func newRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	git(t, repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-qm", "first")
	return repo
}

// writeMockSettings writes a settings file where every role runs the mock,
// with extra's keys added.
func writeMockSettings(t *testing.T, paths dataroot.Paths, extra map[string]any) {
	t.Helper()
	set := map[string]any{"defaultTool": "mock",
		"roles": map[string]any{"planner": map[string]any{"tool": "mock"}, "refinement": map[string]any{"tool": "mock"},
			"developer": map[string]any{"tool": "mock"}, "reviewer": map[string]any{"tool": "mock"}}}
	for k, v := range extra {
		set[k] = v
	}
	b, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(paths.Settings(), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A post-checkout hook that hangs (and leaves a daemon in a session of its
// own) holds provisioning only until the runner's git deadline; the task
// fails saying so, and nothing the hook started outlives the host.
func TestHangingHookDoesNotHoldProvisioningForever(t *testing.T) {
	paths := newPaths(t)
	repo := newRepo(t)
	hook := "#!/bin/sh\nsetsid sleep 300 >/dev/null 2>&1 &\nexec sleep 300\n"
	if err := os.WriteFile(filepath.Join(repo, ".git", "hooks", "post-checkout"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	writeMockSettings(t, paths, map[string]any{"workingDirectory": repo, "stop": map[string]any{"graceMs": 300}})
	st, err := store.Open(context.Background(), paths.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tk, err := st.CreateTask(context.Background(), task.NewTask{Prompt: "hook"})
	if err != nil {
		t.Fatal(err)
	}
	h, err := host.Open(context.Background(), host.Options{Paths: paths, Store: st, Exe: os.Args[0], GitTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := h.Run(ctx, runner.UntilIdle); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := st.GetTask(context.Background(), tk.ID)
	if got.Status != task.StatusFailed || !strings.Contains(got.Error, "timed out") {
		t.Fatalf("task %s %q", got.Status, got.Error)
	}
	if left, _ := proc.FindTagged(proc.TagPrefix(proc.Scope(paths.Root), "")); len(left) > 0 {
		t.Fatalf("the hook's processes outlived the host: %+v", left)
	}
}
