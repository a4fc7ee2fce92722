package qwen

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/openaicli/clitest"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// readTestdata reads testdata/qwen/<name> from the repository root: output
// of the real qwen 0.24.4 against the fake model server (see its README).
func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "qwen", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// parseAll feeds every line of b to a new parser and returns it with the
// events it emitted.
func parseAll(b []byte) (*Parser, []agent.Event) {
	var evs []agent.Event
	p := NewParser(func(e agent.Event) { evs = append(evs, e) })
	for _, l := range bytes.Split(b, []byte("\n")) {
		p.Line(l)
	}
	return p, evs
}

func TestParseToolUse(t *testing.T) {
	p, evs := parseAll(readTestdata(t, "tool_use.jsonl"))
	o := p.Outcome()
	if got, want := clitest.Kinds(evs), "session,text,tool_call:write_file,usage,tool_result,text,usage"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	if o.Results != 1 || o.IsError || o.Report != "Wrote hello.txt." || o.SessionID != "11111111-2222-4333-8444-555555555555" {
		t.Fatalf("outcome %+v", o)
	}
	if want := (agent.Usage{InputTokens: 24, OutputTokens: 14}); o.Usage != want {
		t.Fatalf("usage %+v, want %+v (two model calls)", o.Usage, want)
	}
	for _, e := range evs {
		if e.Kind == agent.EventToolCall && !strings.Contains(e.Text, `"file_path":"/tmp/k2x/work2/hello.txt"`) {
			t.Errorf("tool call input %q", e.Text)
		}
		if e.Kind == agent.EventToolResult && (e.CallID == "" || e.IsError || !strings.Contains(e.Text, "Successfully created")) {
			t.Errorf("tool result %+v", e)
		}
	}
}

// A resumed session's result line counts the whole session; the step's
// usage is its own model calls only.
func TestParseResumeCountsThisRunOnly(t *testing.T) {
	p, _ := parseAll(readTestdata(t, "resume.jsonl"))
	if o := p.Outcome(); o.Usage != (agent.Usage{InputTokens: 12, OutputTokens: 7}) || o.Report != "Kept it." {
		t.Fatalf("outcome %+v", o)
	}
}

// A message sent mid-run is answered as a second turn: two results, the
// report is the last one, usage is both turns'.
func TestParseMidRunInputTwoTurns(t *testing.T) {
	p, _ := parseAll(readTestdata(t, "mid_run_input.jsonl"))
	if o := p.Outcome(); o.Results != 2 || o.Usage.InputTokens != 24 || o.Usage.OutputTokens != 14 {
		t.Fatalf("outcome %+v", o)
	}
}

// qwen fails at once on a 429 whose message says the quota is used up and
// names the reset: the step is a usage limit until that reset.
func TestFinishQuotaExhaustedIsALimit(t *testing.T) {
	r := &run{parser: NewParser(nil)}
	for _, l := range bytes.Split(readTestdata(t, "quota_exhausted.jsonl"), []byte("\n")) {
		r.parser.Line(l)
	}
	res := r.finish(proc.Result{ExitCode: 1}, func(agent.Event) {})
	if !res.Failed() || res.Transient || res.Limit == nil || res.Report != "" {
		t.Fatalf("result %+v", res)
	}
	if want := time.Date(2026, 12, 5, 18, 30, 0, 0, time.UTC); !res.Limit.ResetsAt.Equal(want) {
		t.Fatalf("reset %v, want %v", res.Limit.ResetsAt, want)
	}
	if !strings.HasPrefix(res.ErrorText, "Quota exhausted: You have exceeded your usage quota.") {
		t.Fatalf("error %q", res.ErrorText)
	}
}

// After a minute of silent retries qwen retries a plain 429 with
// system/retry events for many minutes: the first one marks the step rate
// limited, and a run the adapter ended there is a usage limit, not a stop.
func TestParseRateLimitRetryIsALimit(t *testing.T) {
	p, evs := parseAll(readTestdata(t, "rate_limit_retry.txt"))
	o := p.Outcome()
	if !o.RateLimited || o.RetryText != "Retrying in 60s (attempt 1/10): [API Error: 429 Rate limit reached for requests]" {
		t.Fatalf("outcome %+v", o)
	}
	var retry *agent.Event
	for i := range evs {
		if evs[i].Kind == agent.EventRetry && evs[i].Attempt > 0 {
			retry = &evs[i]
		}
	}
	if retry == nil || retry.Attempt != 1 || retry.MaxAttempts != 10 || retry.RetryDelayMs != 60000 {
		t.Fatalf("retry event %+v in %s", retry, clitest.Kinds(evs))
	}
	r := &run{parser: p}
	r.limitStop.Store(true)
	res := r.finish(proc.Result{ExitCode: -1, Signal: "terminated", Reason: proc.ReasonStopped}, nil)
	if res.StopReason != proc.ReasonNone || !res.Failed() || res.Limit == nil || res.Limit.Kind != "rate_limit" ||
		!strings.Contains(res.Limit.Message, "429 Rate limit reached") {
		t.Fatalf("result %+v limit %+v", res, res.Limit)
	}
	// The user's stop wins over the limit.
	r.userStop.Store(true)
	if res := r.finish(proc.Result{ExitCode: -1, Reason: proc.ReasonStopped}, func(agent.Event) {}); res.Limit != nil || res.StopReason != proc.ReasonStopped {
		t.Fatalf("user stop became %+v", res)
	}
}

func TestParseGarbageAndUnknownFlag(t *testing.T) {
	r := &run{parser: NewParser(nil)}
	for _, l := range []string{"\x1b[31mnot json\x1b[0m", "{", `{"type":"assistant","message":7}`, "\xff\xfe", "Unknown arguments: session-id, sessionId"} {
		r.parser.Line([]byte(l))
	}
	res := r.finish(proc.Result{ExitCode: 1}, func(agent.Event) {})
	if !res.Failed() || res.Transient || res.Limit != nil ||
		!strings.Contains(res.ErrorText, "qwen ended without a result") || !strings.Contains(res.ErrorText, "tested with qwen "+TestedVersion) {
		t.Fatalf("result %+v", res)
	}
}

func TestResetFrom(t *testing.T) {
	now := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		msg  string
		want time.Time
	}{
		{"Your quota will reset at 2026-12-05T18:30:00Z.", time.Date(2026, 12, 5, 18, 30, 0, 0, time.UTC)},
		{"quota exceeded, resets at 2026-12-06 01:02:03+08:00", time.Date(2026, 12, 5, 17, 2, 3, 0, time.UTC)},
		{"quota exceeded, try again in 2 hours", now.Add(2 * time.Hour)},
		{"quota exceeded", time.Time{}},
	} {
		if got := resetFrom(tc.msg, now); !got.Equal(tc.want) {
			t.Errorf("resetFrom(%q) = %v, want %v", tc.msg, got, tc.want)
		}
	}
}
