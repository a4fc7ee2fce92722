package codex

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// FuzzParser feeds arbitrary output to the parser: it must never panic, emit
// only known event kinds, and never report negative usage.
func FuzzParser(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "codex", "*", "*.jsonl"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, int64(0))
		for _, l := range bytes.Split(b, []byte("\n")) {
			f.Add(l, int64(7))
		}
	}
	f.Add([]byte("\x1b[0m{\"type\":\"error\",\"message\":\"Reconnecting... 99999999999999999999/1\"}\r"), int64(3))
	f.Add([]byte(`{"type":"turn.completed","usage":{"input_tokens":-5,"cached_input_tokens":-9,"output_tokens":-1}}`), int64(3))
	f.Fuzz(func(t *testing.T, data []byte, base int64) {
		known := map[agent.EventKind]bool{
			agent.EventText: true, agent.EventToolCall: true, agent.EventToolResult: true,
			agent.EventUsage: true, agent.EventRetry: true, agent.EventRaw: true, agent.EventSession: true,
		}
		sessions := 0
		p := NewParser(func(e agent.Event) {
			if !known[e.Kind] {
				t.Fatalf("unknown event kind %q", e.Kind)
			}
			if e.Kind == agent.EventSession {
				sessions++
			}
			if e.Kind == agent.EventUsage && (e.Usage == nil || negative(*e.Usage)) {
				t.Fatalf("bad usage event %+v", e.Usage)
			}
		}, ThreadUsage{InputTokens: base, OutputTokens: base})
		for _, l := range bytes.Split(data, []byte("\n")) {
			p.Line(l)
		}
		if u, ok := p.Usage(); ok && negative(u) {
			t.Fatalf("negative usage %+v", u)
		}
		if p.SessionID() != "" && sessions == 0 {
			t.Fatalf("session %q without a session event", p.SessionID())
		}
	})
}

func negative(u agent.Usage) bool {
	return u.InputTokens < 0 || u.OutputTokens < 0 || u.CacheReadTokens < 0 || u.CacheWriteTokens < 0
}
