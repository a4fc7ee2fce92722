package runner_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// A broken opencode or qwen as the developer: the task fails with the
// CLI's own words (never stuck, nothing left running), through the whole
// queue. Fake executables stand in for the CLIs (no model is reached).
func TestBrokenOpencodeOrQwenFailsTheTaskClearly(t *testing.T) {
	for _, tool := range []string{"opencode", "qwen-code"} {
		for _, tc := range []struct {
			name, body, want string
			idleMs           int
		}{
			{"prints garbage", `printf 'garbage \033[31mnot json\n'; exit 0`, "without", 120000},
			{"exits at once", `echo 'fatal: cannot load the runtime' >&2; exit 3`, "fatal: cannot load the runtime", 120000},
			{"hangs before its first line", `exec sleep 600`, "stalled", 1500},
		} {
			t.Run(tool+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				bin := filepath.Join(t.TempDir(), "cli")
				if err := os.WriteFile(bin, []byte("#!/bin/sh\n"+tc.body+"\n"), 0o755); err != nil {
					t.Fatal(err)
				}
				mock := map[string]any{"tool": "mock"}
				r := newRoot(t, map[string]any{
					"roles": map[string]any{"planner": mock, "refinement": mock, "developer": map[string]any{"tool": tool, "model": "m"}, "reviewer": mock},
					"tools": map[string]any{tool: map[string]any{"path": bin, "env": map[string]string{
						"HOME": t.TempDir(), "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}}},
					"retries": map[string]any{"idleTimeoutMs": tc.idleMs, "backoffMs": []int{10}},
				})
				tk := r.add("Create greeting.txt.", 1)
				r.runUntilIdle(&clock{t: time.Now()})
				got := r.get(tk.ID)
				if got.Status != task.StatusFailed || !strings.Contains(got.Error, tc.want) {
					t.Fatalf("task %s %q, want failed with %q\n%s", got.Status, got.Error, tc.want, r.logText(tk.ID))
				}
				if left := procsUnder(filepath.Join(r.repo, worktree.DefaultRootName)); len(left) > 0 {
					t.Errorf("processes survived: %v", left)
				}
			})
		}
	}
}
