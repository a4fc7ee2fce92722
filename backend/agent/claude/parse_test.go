package claude

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
)

// parseRecorded feeds testdata/claude/<name>/stream.jsonl through a parser.
func parseRecorded(t *testing.T, name string) (Outcome, []agent.Event) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "claude", name, "stream.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var evs []agent.Event
	p := NewParser(func(e agent.Event) { evs = append(evs, e) })
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		p.Line(sc.Bytes())
	}
	return p.Outcome(), evs
}

func kinds(evs []agent.Event) string {
	var ks []string
	for _, e := range evs {
		ks = append(ks, string(e.Kind))
	}
	return strings.Join(ks, ",")
}

func TestParseSuccess(t *testing.T) {
	o, evs := parseRecorded(t, "success")
	if !o.GotResult || o.IsError || o.ErrorText != "" || o.Subtype != "success" {
		t.Fatalf("outcome %+v", o)
	}
	if o.Report != "All done.\n\nVERDICT: APPROVE" {
		t.Fatalf("report %q", o.Report)
	}
	if len(o.SessionID) != 36 || o.Model == "" || o.NumTurns != 1 {
		t.Fatalf("session %q model %q turns %d", o.SessionID, o.Model, o.NumTurns)
	}
	if o.Usage.InputTokens != 100 || o.Usage.OutputTokens != 20 || o.Usage.CacheReadTokens != 50 || !o.Usage.CostKnown || o.Usage.CostUSD <= 0 {
		t.Fatalf("usage %+v", o.Usage)
	}
	// The assistant message's usage is reported live (no cost), then the
	// result's with the cost.
	if got := kinds(evs); got != "session,usage,text,usage" {
		t.Fatalf("events %s", got)
	}
	if u := evs[1].Usage; u.InputTokens == 0 || u.CostKnown {
		t.Fatalf("live usage %+v", u)
	}
}

func TestParseToolUse(t *testing.T) {
	o, evs := parseRecorded(t, "tool_use")
	if o.IsError || !strings.Contains(o.Report, "Wrote hello.txt.") {
		t.Fatalf("outcome %+v", o)
	}
	if q := agent.ExtractQuestions(o.Report); len(q) != 1 || q[0] != "Keep the trailing newline?" {
		t.Fatalf("questions %q", q)
	}
	var calls, results []agent.Event
	for _, e := range evs {
		switch e.Kind {
		case agent.EventToolCall:
			calls = append(calls, e)
		case agent.EventToolResult:
			results = append(results, e)
		}
	}
	if len(calls) != 2 || calls[0].Tool != "Write" || calls[1].Tool != "Bash" || !strings.Contains(calls[0].Text, `"file_path"`) {
		t.Fatalf("calls %+v", calls)
	}
	if len(results) != 2 || results[0].CallID != calls[0].CallID || results[0].IsError || !results[1].IsError {
		t.Fatalf("results %+v", results)
	}
	if !strings.Contains(results[1].Text, "hello") {
		t.Fatalf("bash result %q", results[1].Text)
	}
}

func TestParseRetry(t *testing.T) {
	o, evs := parseRecorded(t, "retry")
	if o.IsError || o.Report != "Recovered." || o.Retries != 2 {
		t.Fatalf("outcome %+v", o)
	}
	var retries []agent.Event
	for _, e := range evs {
		if e.Kind == agent.EventRetry {
			retries = append(retries, e)
		}
	}
	if len(retries) != 2 || retries[0].ErrorStatus != 529 || retries[1].ErrorStatus != 503 ||
		retries[0].Attempt != 1 || retries[0].MaxAttempts != 3 || retries[0].RetryDelayMs <= 0 || retries[0].Text != "overloaded" {
		t.Fatalf("retries %+v", retries)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, text string
		status     int
		transient  bool
	}{
		{"error_529", "API Error: 529 Overloaded", 529, true},
		{"error_503", "API Error: 503 Service Unavailable", 503, true},
		{"error_refused", "API Error: Unable to connect to API (ConnectionRefused)", 0, true},
		{"error_auth", "Invalid API key", 401, false},
		{"not_logged_in", "Not logged in · Please run /login", 0, false},
		{"max_turns", "Reached maximum number of turns (1)", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, _ := parseRecorded(t, c.name)
			if !o.GotResult || !o.IsError || !strings.HasPrefix(o.ErrorText, c.text) || o.APIErrorStatus != c.status {
				t.Fatalf("outcome %+v", o)
			}
			if got := agent.IsTransientToolError(o.ErrorText, false, false, false); got != c.transient {
				t.Fatalf("transient(%q) = %v", o.ErrorText, got)
			}
		})
	}
	o, _ := parseRecorded(t, "max_turns")
	if o.Subtype != "error_max_turns" || o.NumTurns != 2 {
		t.Fatalf("max turns %+v", o)
	}
}

func TestParseNoise(t *testing.T) {
	var evs []agent.Event
	p := NewParser(func(e agent.Event) { evs = append(evs, e) })
	for _, l := range []string{
		"",
		"Error: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons",
		`{"type":"stream_event","event":{}}`,
		`{"type":"assistant","message":{"content":"plain string"},"session_id":"s1"}`,
		`{"type":"assistant","message":{"content":[{"type":"text","text":"last words"}]}}`,
		"\xff\xfe not utf8",
		`{"type":"result","subtype":"error_during_execution","is_error":true}`,
	} {
		p.Line([]byte(l))
	}
	o := p.Outcome()
	if len(o.Raw) != 2 || !strings.Contains(o.Raw[0], "root/sudo") || !strings.Contains(o.Raw[1], "\uFFFD") {
		t.Fatalf("raw %q", o.Raw)
	}
	if o.SessionID != "s1" || o.ErrorText != "error_during_execution" || !o.IsError {
		t.Fatalf("outcome %+v", o)
	}
	if got := kinds(evs); got != "raw,session,text,text,raw,usage" {
		t.Fatalf("events %s", got)
	}
	// Without a result line the report falls back to the last assistant text.
	p2 := NewParser(nil)
	p2.Line([]byte(`{"type":"assistant","message":{"content":[{"type":"text","text":"partial"}]}}`))
	if o := p2.Outcome(); o.GotResult || o.Report != "partial" {
		t.Fatalf("fallback %+v", o)
	}
}

func FuzzParser(f *testing.F) {
	matches, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "claude", "*", "stream.jsonl"))
	for _, m := range matches {
		data, _ := os.ReadFile(m)
		for _, l := range bytes.Split(data, []byte("\n")) {
			f.Add(l)
		}
	}
	f.Add([]byte(`{"type":"result","total_cost_usd":1e400,"usage":{"input_tokens":-1}}`))
	f.Add([]byte(`{"type":"system","subtype":"api_retry","retry_delay_ms":1e308,"error":{"x":1}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := NewParser(func(agent.Event) {})
		p.Line(b)
		p.Line(b)
		_ = p.Outcome()
	})
}

func TestParsePTYTranscript(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "claude", "pty_tool_use", "transcript.raw"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("\x1b[?25h")) {
		t.Fatal("recording lacks the terminal-reset blob it is meant to test")
	}
	for _, chunk := range []int{1, 7, 4096, len(raw)} {
		var evs []agent.Event
		p := NewParser(func(e agent.Event) { evs = append(evs, e) })
		s := proc.NewLineSplitter(p.Line)
		for b := raw; len(b) > 0; {
			n := min(chunk, len(b))
			_, _ = s.Write(b[:n])
			b = b[n:]
		}
		s.Flush()
		o := p.Outcome()
		if !o.GotResult || o.IsError || o.Report != "Done.\n\nVERDICT: APPROVE" || o.Usage.InputTokens < 50 || len(o.SessionID) != 36 {
			t.Fatalf("chunk %d: outcome %+v", chunk, o)
		}
		if len(o.Raw) != 0 {
			t.Fatalf("chunk %d: escape bytes leaked as raw lines: %q", chunk, o.Raw)
		}
		if got := kinds(evs); got != "session,usage,text,tool_call,tool_result,usage,text,usage" {
			t.Fatalf("chunk %d: events %s", chunk, got)
		}
	}
}

// Claude Code 2.1 reports a reached usage limit as a rate_limit_event with
// status "rejected" and resetsAt, then a failed result with its message.
func TestParseUsageLimit(t *testing.T) {
	p := NewParser(nil)
	for _, l := range []string{
		`{"type":"system","subtype":"init","session_id":"s-1","model":"claude-sonnet-4-5"}`,
		`{"type":"rate_limit_event","rate_limit_info":{"status":"allowed_warning","resetsAt":1764601200,"rateLimitType":"five_hour"},"session_id":"s-1"}`,
		`{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":1764601200,"rateLimitType":"five_hour"},"session_id":"s-1"}`,
		`{"type":"result","subtype":"success","is_error":true,"result":"5-hour limit reached ∙ resets 3pm","session_id":"s-1"}`,
	} {
		p.Line([]byte(l))
	}
	o := p.Outcome()
	if o.Limit == nil || !o.Limit.ResetsAt.Equal(time.Unix(1764601200, 0)) || o.Limit.Kind != "five_hour" {
		t.Fatalf("limit %+v", o.Limit)
	}
	res := finish(o, proc.Result{ExitCode: 1}, func(agent.Event) {})
	if res.Limit == nil || res.Transient || !res.Limit.ResetsAt.Equal(time.Unix(1764601200, 0)) ||
		!strings.Contains(res.Limit.Message, "limit reached") {
		t.Fatalf("result %+v limit %+v", res, res.Limit)
	}
	// A warning alone is no limit.
	q := NewParser(nil)
	q.Line([]byte(`{"type":"rate_limit_event","rate_limit_info":{"status":"allowed_warning","resetsAt":1764601200}}`))
	if q.Outcome().Limit != nil {
		t.Fatal("allowed_warning taken as a limit")
	}
}

// What Claude Code 2.1.197 run with an API key printed against the fake
// model server's usage-limit 429 (retry-after of hours: no retry): a
// result with api_error_status 429 and no reset time. It is a usage limit
// (not transient), its reset left to the pipeline's default wait.
func TestParseRejected429IsALimit(t *testing.T) {
	p := NewParser(nil)
	for _, l := range []string{
		`{"type":"system","subtype":"init","session_id":"c9487b35","model":"claude-opus-4-8[1m]"}`,
		`{"type":"assistant","message":{"model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","type":"message","usage":{"input_tokens":0,"output_tokens":0},"content":[{"type":"text","text":"API Error: Request rejected (429) · This request would exceed your account's rate limit. Please try again later."}]},"session_id":"c9487b35","error":"rate_limit"}`,
		`{"type":"result","subtype":"success","is_error":true,"api_error_status":429,"duration_ms":693,"num_turns":1,"result":"API Error: Request rejected (429) · This request would exceed your account's rate limit. Please try again later.","stop_reason":"stop_sequence","session_id":"c9487b35","total_cost_usd":0}`,
	} {
		p.Line([]byte(l))
	}
	res := finish(p.Outcome(), proc.Result{ExitCode: 1}, func(agent.Event) {})
	if res.Limit == nil || res.Transient || !res.Limit.ResetsAt.IsZero() || res.Limit.Kind != "rate_limit" ||
		!strings.Contains(res.Limit.Message, "Request rejected (429)") || res.SessionID != "c9487b35" {
		t.Fatalf("result %+v limit %+v", res, res.Limit)
	}
}

// A result of subtype error_max_turns is the session running out of
// turns, the pipeline's cue to rotate it.
func TestParseMaxTurnsIsExhausted(t *testing.T) {
	p := NewParser(nil)
	p.Line([]byte(`{"type":"result","subtype":"error_max_turns","is_error":true,"num_turns":30,"session_id":"s-2"}`))
	res := finish(p.Outcome(), proc.Result{ExitCode: 1}, func(agent.Event) {})
	if res.Exhausted != agent.ExhaustedTurns || res.Limit != nil {
		t.Fatalf("result %+v", res)
	}
}
