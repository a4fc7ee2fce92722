package codex

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The reset of a usage limit is the latest reset of a window at 100 % in
// the session file's last token_count (a window below 100 % is no limit;
// an earlier event's windows are stale), and the usage its last total.
func TestRolloutResetOfAFullWindow(t *testing.T) {
	home := t.TempDir()
	id := "01a24628-7a6c-7f20-8fc1-a68708b3572b"
	dir := filepath.Join(home, "sessions", "2026", "12", "05")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "rollout-2026-12-05T12-23-08-"+id+".jsonl"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const usage = `{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":500,"output_tokens":9}},"rate_limits":{"primary":{"used_percent":100.0,"resets_at":1796470000}}}}` + "\n"
	cases := []struct {
		name, last string
		want       time.Time
	}{
		{"primary full", `{"type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"limit_id":"codex","primary":{"used_percent":100.0,"window_minutes":300,"resets_at":1796473444},"secondary":null}}}`,
			time.Unix(1796473444, 0)},
		{"both full: the later", `{"type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"primary":{"used_percent":100,"resets_at":1796473444},"secondary":{"used_percent":100.0,"resets_at":1796900000}}}}`,
			time.Unix(1796900000, 0)},
		{"secondary full only", `{"type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"primary":{"used_percent":12.5,"resets_at":1796473444},"secondary":{"used_percent":100.0,"resets_at":1796900000}}}}`,
			time.Unix(1796900000, 0)},
		{"no window full", `{"type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"primary":{"used_percent":99.0,"resets_at":1796473444},"secondary":null}}}`,
			time.Time{}},
		{"no windows (no headers)", `{"type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":{"limit_id":"codex","primary":null,"secondary":null}}}`,
			time.Time{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			write(usage + c.last + "\n")
			r, ok := readRollout(home, id)
			if !ok || !r.resetsAt.Equal(c.want) {
				t.Fatalf("reset %v %v, want %v", r.resetsAt, ok, c.want)
			}
			if !r.haveUsage || r.usage != (ThreadUsage{InputTokens: 500, OutputTokens: 9}) {
				t.Fatalf("usage %+v %v", r.usage, r.haveUsage)
			}
		})
	}
	if _, ok := readRollout("", id); ok {
		t.Fatal("read a session file without a codex home")
	}
}
