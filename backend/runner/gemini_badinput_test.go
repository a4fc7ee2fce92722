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

// geminiScript writes a stand-in for the gemini executable and returns
// its path.
func geminiScript(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gemini")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// geminiRoot is a data root whose roles all run gemini at path, retries
// once, and gives up on a silent step after idleMs.
func geminiRoot(t *testing.T, path string, idleMs int, extra map[string]any) *root {
	t.Helper()
	role := map[string]any{"tool": "gemini"}
	set := map[string]any{
		"roles":   map[string]any{"planner": role, "refinement": role, "developer": role, "reviewer": role},
		"tools":   map[string]any{"gemini": map[string]any{"path": path, "env": map[string]string{"GEMINI_API_KEY": "k"}}},
		"retries": map[string]any{"transient": 1, "idleTimeoutMs": idleMs, "backoffMs": []int{10}},
	}
	for k, v := range extra {
		set[k] = v
	}
	return newRoot(t, set)
}

// A gemini that is missing, too old for its flags, prints garbage, exits
// at once or hangs before its first line: the task fails with a message
// that says so, in one run of the queue (never stuck, never left
// running), and no process is left in the worktree root.
func TestGeminiBadInputFailsTheTaskClearly(t *testing.T) {
	for _, c := range []struct {
		name, script string
		want         string
	}{
		{"missing", "", "planner: cannot start gemini: gemini executable /nowhere/gemini not found (install @google/gemini-cli, or set tools.gemini.path)"},
		{"too old", "echo 'Unknown argument: skip-trust' >&2; exit 1",
			"gemini ended without a result: Unknown argument: skip-trust (an older gemini? this app drives gemini 0.61.0 or later)"},
		{"garbage", `printf '\377\033[2J{"not":json\n'`, "gemini ended without a result: "},
		{"exits at once", "exit 3", "gemini ended without a result"},
		{"hangs", "sleep 600", "stalled"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			path := "/nowhere/gemini"
			if c.script != "" {
				path = geminiScript(t, c.script)
			}
			r := geminiRoot(t, path, 1500, nil)
			tk := r.add("Say hello.", 1)
			r.runUntilIdle(&clock{t: time.Now()})
			got := r.get(tk.ID)
			if got.Status != task.StatusFailed || !strings.Contains(got.Error, c.want) || strings.Contains(got.Error, "\n") {
				t.Fatalf("task %s %q, want failed with %q\n%s", got.Status, got.Error, c.want, r.logText(tk.ID))
			}
			if left := procsUnder(filepath.Join(r.repo, worktree.DefaultRootName)); len(left) > 0 {
				t.Errorf("processes left: %v", left)
			}
		})
	}
}

// Two tasks running gemini at the same time never share a config
// directory (two gemini processes in one corrupted a session file): each
// worktree has its own in the data root, and both tasks are done.
func TestGeminiTasksAtOnceKeepTheirOwnConfigDirs(t *testing.T) {
	td, err := filepath.Abs(filepath.Join("..", "..", "testdata", "gemini", "success", "stream.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	seen := filepath.Join(t.TempDir(), "homes.txt")
	path := geminiScript(t, `echo "$GEMINI_CLI_HOME $PWD" >> `+seen+`; sleep 1; cat `+td)
	r := geminiRoot(t, path, 60000, map[string]any{"runner": map[string]any{"concurrency": 2}})
	a, b := r.add("First.", 1), r.add("Second.", 1)
	r.runUntilIdle(&clock{t: time.Now()})
	for _, id := range []string{a.ID, b.ID} {
		if got := r.get(id); got.Status != task.StatusDone {
			t.Fatalf("task %s %q\n%s", got.Status, got.Error, r.logText(id))
		}
	}
	b2, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	homeOf := map[string]string{} // worktree → config dir
	for _, l := range strings.Split(strings.TrimSpace(string(b2)), "\n") {
		home, wd, _ := strings.Cut(l, " ")
		if prev, ok := homeOf[wd]; ok && prev != home {
			t.Errorf("worktree %s ran with config dirs %s and %s", wd, prev, home)
		}
		homeOf[wd] = home
		if !strings.HasPrefix(home, filepath.Join(r.dir, "gemini-state", "homes")+"/") {
			t.Errorf("config dir %s is not in the data root", home)
		}
	}
	homes := map[string]bool{}
	for _, h := range homeOf {
		homes[h] = true
	}
	if len(homeOf) != 2 || len(homes) != 2 {
		t.Fatalf("worktrees and their config dirs: %v", homeOf)
	}
}
