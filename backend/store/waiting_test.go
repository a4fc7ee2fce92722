package store

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// WaitingFor names exactly the pending tasks NextClaimable passes over for
// a paused tool, with that tool: for each pick, the tasks claimed one after
// another and the tasks said to wait are the eligible pending tasks, none
// in both.
func TestWaitingForIsWhatTheClaimPassesOver(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	mk := func(n task.NewTask) string {
		t.Helper()
		tk, err := s.CreateTask(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		return tk.ID
	}
	plain := mk(task.NewTask{Prompt: "settings' tool"})
	claude := mk(task.NewTask{Prompt: "own claude", Tools: task.Tools{task.RolePlanner: {Tool: "claude-code"}}})
	codexSwitch := mk(task.NewTask{Prompt: "own codex, switches", OnLimit: task.OnLimitSwitch, Tools: task.Tools{task.RolePlanner: {Tool: "codex"}}})
	switches := mk(task.NewTask{Prompt: "switches", OnLimit: task.OnLimitSwitch})
	waitsAlways := mk(task.NewTask{Prompt: "waits", OnLimit: task.OnLimitWait})
	roles := map[task.Role]string{}
	for _, r := range task.Roles {
		roles[r] = "mock"
	}
	cases := []struct {
		name string
		pick Pick
		want map[string]string
	}{
		{"nothing paused", Pick{}, map[string]string{}},
		{"mock paused", Pick{Paused: []string{"mock"}}, map[string]string{plain: "mock", switches: "mock", waitsAlways: "mock"}},
		{"mock paused and switchable", Pick{Paused: []string{"mock"}, Switchable: []string{"mock"}}, map[string]string{plain: "mock", waitsAlways: "mock"}},
		{"mock switchable, switch by default", Pick{Paused: []string{"mock"}, Switchable: []string{"mock"}, SwitchByDefault: true}, map[string]string{waitsAlways: "mock"}},
		{"claude and codex paused, codex switchable", Pick{Paused: []string{"claude-code", "codex"}, Switchable: []string{"codex"}}, map[string]string{claude: "claude-code"}},
		{"every tool paused", Pick{Paused: []string{"claude-code", "codex", "mock"}}, map[string]string{plain: "mock", claude: "claude-code", codexSwitch: "codex", switches: "mock", waitsAlways: "mock"}},
	}
	all := []string{plain, claude, codexSwitch, switches, waitsAlways}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.pick
			p.Now, p.RoleTools = now, roles
			got, err := s.WaitingFor(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, c.want) {
				t.Fatalf("waiting %v, want %v", got, c.want)
			}
			var claimed []string
			for {
				p.Except = claimed
				tk, err := s.NextClaimable(ctx, p)
				if errors.Is(err, ErrNotFound) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				claimed = append(claimed, tk.ID)
			}
			for _, id := range all {
				_, waits := got[id]
				if waits == slices.Contains(claimed, id) {
					t.Errorf("task %s: said to wait %v, claimable %v", id, waits, !waits)
				}
			}
		})
	}
}
