package runner_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/boof-runner/boof-runner/backend/dataroot"
)

func TestSettingsVerbs(t *testing.T) {
	r := newRoot(t, nil)
	ctx := context.Background()
	if res := r.cli(ctx, "settings", "get", "review.maxFixRounds"); res.code != 0 || strings.TrimSpace(res.stdout) != "2" {
		t.Fatalf("get default: %+v", res)
	}
	if res := r.cli(ctx, "settings", "set", "review.maxFixRounds", "3"); res.code != 0 || !strings.Contains(res.stdout, "= 3") {
		t.Fatalf("set: %+v", res)
	}
	if res := r.cli(ctx, "settings", "set", "roles.observer", `{"tool":"mock","model":"m"}`); res.code != 0 {
		t.Fatalf("set observer: %+v", res)
	}
	if res := r.cli(ctx, "settings", "set", "worktree.onDone", "keep"); res.code != 0 {
		t.Fatalf("set bare word: %+v", res)
	}
	path := dataroot.Paths{Root: r.dir}.Settings()
	before, _ := os.ReadFile(path)
	for _, bad := range [][]string{
		{"set", "review.maxFixRounds", "lots"},
		{"set", "review.maxFixRoundz", "1"},
		{"set", "roles.developer.tool", "vim"},
	} {
		res := r.cli(ctx, append([]string{"settings"}, bad...)...)
		if res.code != 1 || !strings.Contains(res.stderr, strings.Split(bad[1], ".")[0]) {
			t.Errorf("%v: %+v", bad, res)
		}
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("a rejected set changed the file")
	}
	if res := r.cli(ctx, "settings", "set", "roles.observer", "null"); res.code != 0 || !strings.Contains(res.stdout, "unset") {
		t.Fatalf("unset: %+v", res)
	}
	if res := r.cli(ctx, "settings", "frob"); res.code != 2 {
		t.Fatalf("bad action: %+v", res)
	}
	os.WriteFile(path, []byte(`{"review": {"gate": "yes"}}`), 0o600)
	if res := r.cli(ctx, "settings", "get"); res.code != 1 || !strings.Contains(res.stderr, "review.gate") {
		t.Fatalf("invalid file: %+v", res)
	}
	if b, _ := os.ReadFile(path); string(b) != `{"review": {"gate": "yes"}}` {
		t.Fatal("invalid file rewritten")
	}
}
