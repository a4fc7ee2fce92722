package budget

import (
	"fmt"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
)

var t0 = time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)

// The same call failing with the same error trips at the third failure in
// a row, with the call and the error as evidence; a success, another error
// or another call in between starts the count again.
func TestRepeatFailureBreaker(t *testing.T) {
	b := NewBreakers(settings.DefaultBreakers(), "developer", t0)
	fail := func(id, input, errText string) *task.CircuitBroken {
		if c := b.ToolCall("bash", id, input); c != nil {
			t.Fatalf("tool-call trip %+v", c)
		}
		return b.ToolResult(id, errText, true)
	}
	seq := []struct{ input, err string }{
		{"npm test", "E1"}, {"npm test", "E1"}, {"npm test", "E2"}, // another error: count 1 again
		{"npm test", "E2"}, {"go test", "E2"}, // another call: count 1 again
		{"npm test", "E2"}, {"npm test", "E2"},
	}
	for i, s := range seq {
		if c := fail(fmt.Sprint(i), s.input, s.err); c != nil {
			t.Fatalf("tripped at %d: %+v", i, c)
		}
	}
	if c := b.ToolCall("bash", "ok", "npm test"); c != nil {
		t.Fatal(c)
	}
	if c := b.ToolResult("ok", "passed", false); c != nil {
		t.Fatalf("a success tripped: %+v", c)
	}
	for i := range 2 {
		if c := fail(fmt.Sprint("x", i), "npm test", "E2"); c != nil {
			t.Fatalf("tripped after a success at %d", i)
		}
	}
	c := fail("x2", "npm test", "E2")
	if c == nil || c.Breaker != task.BreakerRepeatFailure || c.Count != 3 || c.Limit != 3 || c.Tool != "bash" ||
		c.Input != "npm test" || c.Error != "E2" || c.Step != "developer" ||
		c.Reason != `circuit_broken:repeat_failure: bash "npm test" failed 3 times in a row with the same error` {
		t.Fatalf("trip %+v", c)
	}
	if c := fail("x3", "npm test", "E2"); c != nil {
		t.Fatal("a step trips once")
	}
}

// Tool results that change no file and repeat old output trip the
// no-progress breaker; an edit or new output resets it.
func TestNoProgressBreaker(t *testing.T) {
	cfg := settings.DefaultBreakers()
	cfg.NoProgress = 3
	b := NewBreakers(cfg, "developer", t0)
	res := func(tool, out string) *task.CircuitBroken {
		b.ToolCall(tool, "", "README.md")
		return b.ToolResult("", out, false)
	}
	if res("read", "same") != nil { // new output: progress
		t.Fatal("first output tripped")
	}
	if res("read", "same") != nil || res("read", "same") != nil {
		t.Fatal("tripped at 2")
	}
	if res("Edit", "same") != nil { // a file change resets
		t.Fatal("an edit tripped")
	}
	if res("read", "same") != nil || res("read", "same") != nil {
		t.Fatal("tripped at 2 after the edit")
	}
	c := res("read", "same")
	if c == nil || c.Breaker != task.BreakerNoProgress || c.Count != 3 || c.Tool != "read" || c.Input != "README.md" {
		t.Fatalf("trip %+v", c)
	}
}

// The Nth tool call trips the tool-call breaker; 0 turns a breaker off.
func TestToolCallBreakerAndOff(t *testing.T) {
	cfg := settings.Breakers{ToolCalls: 4, VelocityWindowMs: 1000}
	b := NewBreakers(cfg, "reviewer", t0)
	for i := range 3 {
		if c := b.ToolCall("read", fmt.Sprint(i), "f"); c != nil {
			t.Fatalf("tripped at %d", i+1)
		}
		if c := b.ToolResult(fmt.Sprint(i), "boom", true); c != nil {
			t.Fatalf("an off breaker tripped: %+v", c)
		}
	}
	c := b.ToolCall("read", "3", "f")
	if c == nil || c.Breaker != task.BreakerToolCalls || c.Count != 4 || c.Limit != 4 || c.Step != "reviewer" {
		t.Fatalf("trip %+v", c)
	}
	off := NewBreakers(settings.Breakers{VelocityWindowMs: 1000}, "x", t0)
	if off.Usage(1_000_000_000, t0.Add(time.Hour)) != nil {
		t.Fatal("an off velocity breaker tripped")
	}
}

// Token velocity is measured once the step ran its window, over the last
// minute.
func TestTokenVelocityBreaker(t *testing.T) {
	cfg := settings.DefaultBreakers() // 400,000 tokens/min after 30 s
	b := NewBreakers(cfg, "developer", t0)
	// 500,000 tokens in 20 s: fast, but inside the window.
	if c := b.Usage(500_000, t0.Add(20*time.Second)); c != nil {
		t.Fatalf("tripped inside the window: %+v", c)
	}
	// 550,000 tokens after 90 s: the last minute (from 30 s) saw at most
	// 50,000 more tokens over 70 s: slow.
	if c := b.Usage(550_000, t0.Add(90*time.Second)); c != nil {
		t.Fatalf("slow step tripped: %+v", c)
	}
	// 1,100,000 after 100 s: the last minute (from 40 s, counted from the
	// sample before it) saw 600,000 tokens.
	c := b.Usage(1_100_000, t0.Add(100*time.Second))
	if c == nil || c.Breaker != task.BreakerTokenVelocity || c.Limit != 400_000 || c.Tokens != 600_000 ||
		c.WindowMs != 60_000 || c.Count != 600_000 {
		t.Fatalf("trip %+v", c)
	}
	// A fast step trips at the end of its window.
	f := NewBreakers(cfg, "developer", t0)
	if c := f.Usage(300_000, t0.Add(30*time.Second)); c == nil || c.Count != 600_000 || c.WindowMs != 30_000 {
		t.Fatalf("fast step: %+v", c)
	}
}
