package codex

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// parseAll feeds every line of data to a new parser and returns it with the
// events it emitted.
func parseAll(data []byte, base ThreadUsage) (*Parser, []agent.Event) {
	var evs []agent.Event
	p := NewParser(func(e agent.Event) { evs = append(evs, e) }, base)
	for _, l := range bytes.Split(data, []byte("\n")) {
		p.Line(l)
	}
	return p, evs
}

// kinds lists the event kinds, with the tool name for tool events.
func kinds(evs []agent.Event) string {
	var out []string
	for _, e := range evs {
		k := string(e.Kind)
		if e.Tool != "" {
			k += ":" + e.Tool
		}
		if e.IsError {
			k += "!"
		}
		out = append(out, k)
	}
	return strings.Join(out, ",")
}

func TestParseRecordedSuccess(t *testing.T) {
	p, evs := parseAll(readTestdata(t, "success/stream.jsonl"), ThreadUsage{})
	if got, want := kinds(evs), "session,text,usage"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	if !strings.HasPrefix(p.SessionID(), "01a229f") || evs[0].Text != p.SessionID() {
		t.Fatalf("session %q / %q", p.SessionID(), evs[0].Text)
	}
	if p.LastMessage() != "All done.\n\nVERDICT: APPROVE" || !p.TurnCompleted() || p.ErrorText() != "" {
		t.Fatalf("last %q completed %v error %q", p.LastMessage(), p.TurnCompleted(), p.ErrorText())
	}
	u, ok := p.Usage()
	// The fake server sent 100 fresh + 40 cached input tokens and 20 output.
	want := agent.Usage{InputTokens: 100, CacheReadTokens: 40, OutputTokens: 20}
	if !ok || u != want || *evs[2].Usage != want {
		t.Fatalf("usage %+v %v, event %+v", u, ok, evs[2].Usage)
	}
}

func TestParseRecordedFileChange(t *testing.T) {
	p, evs := parseAll(readTestdata(t, "file_change/stream.jsonl"), ThreadUsage{})
	want := "session,text,tool_call:apply_patch,tool_result:apply_patch,tool_call:exec_command,tool_result:exec_command!,text,usage"
	if got := kinds(evs); got != want {
		t.Fatalf("events %s\nwant   %s", got, want)
	}
	if evs[2].Text != "add /work/repo/hello.txt" || evs[2].CallID != evs[3].CallID || evs[2].CallID == "" {
		t.Fatalf("patch call %+v result %+v", evs[2], evs[3])
	}
	if !strings.Contains(evs[4].Text, "cat hello.txt && false") || evs[5].Text != "hello\n" {
		t.Fatalf("command call %+v result %+v", evs[4], evs[5])
	}
	if got := agent.ExtractQuestions(p.LastMessage()); len(got) != 1 || got[0] != "Keep the trailing newline?" {
		t.Fatalf("questions %q from %q", got, p.LastMessage())
	}
	if u, _ := p.Usage(); u.InputTokens != 54 || u.OutputTokens != 25 {
		t.Fatalf("usage summed over the turn's requests: %+v", u)
	}
}

func TestParseRecordedFailures(t *testing.T) {
	for _, tc := range []struct {
		name, errText string
		transient     bool
	}{
		{"failure_503", "unexpected status 503 Service Unavailable", true},
		{"no_key", "Missing environment variable: `FAKE_KEY`.", false},
		{"unreachable", "Reconnecting... waiting for network", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, evs := parseAll(readTestdata(t, tc.name+"/stream.jsonl"), ThreadUsage{})
			if !strings.Contains(p.ErrorText(), tc.errText) {
				t.Fatalf("error text %q, want it to hold %q", p.ErrorText(), tc.errText)
			}
			if p.TurnCompleted() || p.LastMessage() != "" {
				t.Fatalf("failed turn completed=%v last=%q", p.TurnCompleted(), p.LastMessage())
			}
			if _, ok := p.Usage(); ok {
				t.Fatal("usage reported for a failed turn")
			}
			if got := agent.IsTransientToolError(p.ErrorText(), false, false, false); got != tc.transient {
				t.Fatalf("transient(%q) = %v", p.ErrorText(), got)
			}
			if evs[0].Kind != agent.EventSession {
				t.Fatalf("first event %+v", evs[0])
			}
		})
	}
}

func TestParseRecordedRetry(t *testing.T) {
	p, evs := parseAll(readTestdata(t, "retry/stream.jsonl"), ThreadUsage{})
	if got, want := kinds(evs), "session,retry,retry,text,usage"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	r1, r2 := evs[1], evs[2]
	if r1.Attempt != 1 || r1.MaxAttempts != 5 || r1.ErrorStatus != 503 || r2.Attempt != 2 || r2.ErrorStatus != 502 {
		t.Fatalf("retries %+v %+v", r1, r2)
	}
	if p.LastMessage() != "Recovered." || !p.TurnCompleted() {
		t.Fatalf("last %q", p.LastMessage())
	}
	// The retries were survived: the step did not fail, whatever lastError says.
	if p.turnFailed != "" {
		t.Fatalf("turn failed %q", p.turnFailed)
	}
}

func TestParseRecordedNonFatalErrorItem(t *testing.T) {
	p, evs := parseAll(readTestdata(t, "nonfatal_error/stream.jsonl"), ThreadUsage{})
	if got, want := kinds(evs), "session,raw!,text,usage"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	if w := p.Warnings(); len(w) != 1 || !strings.Contains(w[0], "Model metadata for `gpt-5` not found") {
		t.Fatalf("warnings %q", w)
	}
	if p.ErrorText() != "" || p.LastMessage() != "Fine anyway." {
		t.Fatalf("error %q last %q", p.ErrorText(), p.LastMessage())
	}
}

func TestParseRecordedResumeReportsDelta(t *testing.T) {
	first, _ := parseAll(readTestdata(t, "resume/first.jsonl"), ThreadUsage{})
	base, ok := first.Thread()
	if !ok {
		t.Fatal("first turn reported no usage")
	}
	p, _ := parseAll(readTestdata(t, "resume/stream.jsonl"), base)
	if p.SessionID() != first.SessionID() {
		t.Fatalf("resumed thread %q, first %q", p.SessionID(), first.SessionID())
	}
	u, _ := p.Usage()
	// Second reply: 150 fresh + 90 cached input, 5 output.
	if want := (agent.Usage{InputTokens: 150, CacheReadTokens: 90, OutputTokens: 5}); u != want {
		t.Fatalf("delta usage %+v, want %+v", u, want)
	}
	cum, _ := p.Thread()
	if cum.InputTokens != 340 || cum.OutputTokens != 15 {
		t.Fatalf("cumulative %+v", cum)
	}
}

func TestParseToleratesTerminalNoise(t *testing.T) {
	data := readTestdata(t, "success/stream.jsonl")
	// As through a PTY: CRLF endings, stderr lines and escape sequences mixed in.
	noisy := "Reading additional input from stdin...\r\n\x1b[0m\x1b]0;codex\x07" +
		strings.ReplaceAll(string(data), "\n", "\r\n") + "\x1b[?25h\r\n"
	p, evs := parseAll([]byte(noisy), ThreadUsage{})
	if got, want := kinds(evs), "raw,session,text,usage"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	if evs[0].Text != "Reading additional input from stdin..." {
		t.Fatalf("raw %q", evs[0].Text)
	}
	if p.LastMessage() != "All done.\n\nVERDICT: APPROVE" {
		t.Fatalf("last %q", p.LastMessage())
	}
}

func TestParseOddLines(t *testing.T) {
	for _, tc := range []struct {
		name, line, want string
	}{
		{"garbage", "not json at all", "raw"},
		{"json without type", `{"foo":1}`, "raw"},
		{"unknown event", `{"type":"thread.archived"}`, "raw"},
		{"unknown item", `{"type":"item.completed","item":{"id":"i","type":"todo_list","items":[]}}`, "raw"},
		{"item without item", `{"type":"item.completed"}`, ""},
		{"array", `[1,2,3]`, "raw"},
		{"non utf8", "\xff\xfe{\"type\"", "raw"},
		{"blank", "   ", ""},
		{"reasoning", `{"type":"item.completed","item":{"id":"r","type":"reasoning","text":"thinking"}}`, "text:reasoning"},
		{"web search", `{"type":"item.started","item":{"id":"w","type":"web_search","query":"go pty"}}`, "tool_call:web_search"},
		{"mcp", `{"type":"item.completed","item":{"id":"m","type":"mcp_tool_call","server":"s","tool":"t","status":"failed"}}`, "tool_call:s.t,tool_result:s.t!"},
		{"turn failed without error", `{"type":"turn.failed"}`, "raw!"},
		{"declined command", `{"type":"item.completed","item":{"id":"c","type":"command_execution","command":"rm -rf /","status":"declined"}}`, "tool_call:exec_command,tool_result:exec_command!"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, evs := parseAll([]byte(tc.line), ThreadUsage{})
			if got := kinds(evs); got != tc.want {
				t.Fatalf("events %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseTurnFailedWinsOverRetries(t *testing.T) {
	p, _ := parseAll([]byte(`{"type":"error","message":"Reconnecting... 1/5 (unexpected status 500)"}
{"type":"turn.failed","error":{"message":"stream disconnected before completion"}}`), ThreadUsage{})
	if p.ErrorText() != "stream disconnected before completion" {
		t.Fatalf("error text %q", p.ErrorText())
	}
}

func TestUsageBaseAboveTotalIsIgnored(t *testing.T) {
	p, _ := parseAll([]byte(`{"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":2,"output_tokens":3}}`),
		ThreadUsage{InputTokens: 50, OutputTokens: 50})
	if u, _ := p.Usage(); u != (agent.Usage{InputTokens: 8, CacheReadTokens: 2, OutputTokens: 3}) {
		t.Fatalf("usage with a base above the total gave %+v", u)
	}
}

func TestParseRecordedPTYTranscript(t *testing.T) {
	// Through the PTY, codex's stderr notices come first, mixed with stdout.
	p, evs := parseAll(readTestdata(t, "pty_file_change/pty.log"), ThreadUsage{})
	want := "raw,raw,session,text,tool_call:exec_command,tool_result:exec_command,text,usage"
	if got := kinds(evs); got != want {
		t.Fatalf("events %s\nwant   %s", got, want)
	}
	if !strings.HasPrefix(evs[0].Text, "WARNING: proceeding") || evs[5].Text != "hi.txt\n" {
		t.Fatalf("raw %q, command output %q", evs[0].Text, evs[5].Text)
	}
	// Two requests: 12+70 fresh and 30 cached input tokens, 7+12 output.
	if u, _ := p.Usage(); u != (agent.Usage{InputTokens: 82, CacheReadTokens: 30, OutputTokens: 19}) {
		t.Fatalf("usage %+v", u)
	}
	if p.LastMessage() != "Wrote hi.txt.\n\nVERDICT: APPROVE" || p.ErrorText() != "" {
		t.Fatalf("last %q error %q", p.LastMessage(), p.ErrorText())
	}
}

func TestParseClipsHugeText(t *testing.T) {
	out := strings.Repeat("é", maxEventText) // 2 bytes a rune: the cut falls mid-rune
	line, _ := json.Marshal(map[string]any{"type": "item.completed", "item": map[string]any{
		"id": "c", "type": "command_execution", "command": "cat big", "aggregated_output": out, "exit_code": 0, "status": "completed"}})
	_, evs := parseAll(line, ThreadUsage{})
	res := evs[1].Text
	if len(res) > maxEventText+20 || !strings.HasSuffix(res, "… [clipped]") || !utf8.ValidString(res) {
		t.Fatalf("clipped result: %d bytes, valid %v, tail %q", len(res), utf8.ValidString(res), res[len(res)-20:])
	}
}

func TestParseRecordedReasoning(t *testing.T) {
	p, evs := parseAll(readTestdata(t, "reasoning/stream.jsonl"), ThreadUsage{})
	if got, want := kinds(evs), "session,text:reasoning,text,usage"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	if !strings.HasPrefix(evs[1].Text, "**Checking the task**") || p.LastMessage() != "Short answer." {
		t.Fatalf("reasoning %q last %q", evs[1].Text, p.LastMessage())
	}
	// Reasoning tokens are part of the output tokens.
	if u, _ := p.Usage(); u.OutputTokens != 15 {
		t.Fatalf("usage %+v", u)
	}
}
