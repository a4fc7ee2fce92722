package codex

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/task"
)

func TestTOMLString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", `"plain"`},
		{`say "hi"`, `"say \"hi\""`},
		{`C:\path`, `"C:\\path"`},
		{"two\nlines\r\n\ttab", `"two\nlines\r\n\ttab"`},
		{"bell\x07del\x7f", `"bell\u0007del\u007F"`},
		{"true", `"true"`},
		{"ünïcødé ✓", `"ünïcødé ✓"`},
		{"", `""`},
	} {
		if got := tomlString(tc.in); got != tc.want {
			t.Errorf("tomlString(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestBuildArgs(t *testing.T) {
	base := stepParams{prompt: "p", dir: "/w", lastFile: "/t/last"}
	for _, tc := range []struct {
		name string
		mod  func(*stepParams)
		want string
	}{
		{"minimal", func(*stepParams) {},
			"exec --json --dangerously-bypass-approvals-and-sandbox --skip-git-repo-check -C /w -o /t/last -- p"},
		{"resume", func(p *stepParams) { p.resume = "01a229f7-ce4f-7cc1-8d7f-306c6a161f62"; p.model = "gpt-5.5" },
			"exec resume --json --dangerously-bypass-approvals-and-sandbox --skip-git-repo-check -m gpt-5.5 -o /t/last -- 01a229f7-ce4f-7cc1-8d7f-306c6a161f62 p"},
		{"system and overrides", func(p *stepParams) { p.system = "be brief"; p.overrides = []string{"a=1", "b.c=\"x\""} },
			`exec --json --dangerously-bypass-approvals-and-sandbox --skip-git-repo-check -C /w -o /t/last -c developer_instructions="be brief" -c a=1 -c b.c="x" -- p`},
		{"ephemeral", func(p *stepParams) { p.ephemeral = true },
			"exec --json --dangerously-bypass-approvals-and-sandbox --skip-git-repo-check --ephemeral -C /w -o /t/last -- p"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := base
			tc.mod(&p)
			inv, err := buildArgs(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(inv.args, " "); got != tc.want || inv.stdinPrompt != "" {
				t.Fatalf("args\n got %s\nwant %s", got, tc.want)
			}
		})
	}
	t.Run("long prompt", func(t *testing.T) {
		p := base
		p.prompt = strings.Repeat("x", maxArgBytes+1)
		inv, err := buildArgs(p)
		if err != nil || inv.args[len(inv.args)-1] != "-" || inv.stdinPrompt != p.prompt {
			t.Fatalf("args tail %q, stdin %d bytes, err %v", inv.args[len(inv.args)-2:], len(inv.stdinPrompt), err)
		}
	})
	t.Run("bad model", func(t *testing.T) {
		p := base
		p.model = "gpt 5"
		if _, err := buildArgs(p); !errors.Is(err, ErrBadModel) {
			t.Fatalf("err %v", err)
		}
	})
}

func TestRolloutUsage(t *testing.T) {
	home := t.TempDir()
	id := "01a229f7-ce4f-7cc1-8d7f-306c6a161f62"
	if _, ok := rolloutUsage(home, id); ok {
		t.Fatal("usage found with no session file")
	}
	dir := filepath.Join(home, "sessions", "2026", "11", "30")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	body := `{"type":"session_meta","payload":{"id":"x"}}
not json, "token_count"
{"type":"event_msg","payload":{"type":"token_count","info":null}}
{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":7,"cached_input_tokens":2,"output_tokens":3}}}}
{"type":"response_item","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":999}}}}
`
	if err := os.WriteFile(filepath.Join(dir, "rollout-2026-11-30T00-46-31-"+id+".jsonl"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	u, ok := rolloutUsage(home, id)
	if !ok || u != (ThreadUsage{InputTokens: 7, CachedInputTokens: 2, OutputTokens: 3}) {
		t.Fatalf("usage %+v %v", u, ok)
	}
	if _, ok := rolloutUsage(home, "../../etc"); ok {
		t.Fatal("a path as thread id was looked up")
	}
}

// A read-only planning step runs in codex's read-only sandbox, never asking
// for approval; everything else keeps full access.
func TestReadOnlySandbox(t *testing.T) {
	inv, err := buildArgs(stepParams{prompt: "p", dir: "/w", lastFile: "/t/last", readOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(inv.args, " ")
	if !strings.Contains(got, "--sandbox read-only -c approval_policy=\"never\"") || strings.Contains(got, "--dangerously-bypass") {
		t.Errorf("read-only args %q", got)
	}
	for role, want := range map[task.Role]bool{task.RolePlanner: true, task.RolePlannerAnswer: true, task.RoleRefinement: true,
		task.RoleObserver: false, task.RoleReviewer: false, task.RoleDeveloper: false} {
		if got := sandboxed(agent.Request{Role: role, ReadOnly: true}); got != want {
			t.Errorf("sandboxed(%s) = %v", role, got)
		}
	}
	if sandboxed(agent.Request{Role: task.RolePlanner}) {
		t.Error("a planner with write access is sandboxed")
	}
}
