package fakemodel

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// responsesEvents posts body to /v1/responses and returns the status, the
// event names and the data payloads in order.
func responsesEvents(t *testing.T, s *Server, body string) (int, []string, []map[string]any) {
	t.Helper()
	resp, err := http.Post(s.URL()+"/v1/responses", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var names []string
	var data []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			names = append(names, name)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			var m map[string]any
			if err := json.Unmarshal([]byte(d), &m); err != nil {
				t.Fatalf("bad data %q: %v", d, err)
			}
			if m["type"] != names[len(names)-1] {
				t.Fatalf("event %s carries type %v", names[len(names)-1], m["type"])
			}
			data = append(data, m)
		}
	}
	return resp.StatusCode, names, data
}

func TestResponsesStreamsTextAndFunctionCall(t *testing.T) {
	s := Start(t)
	s.Enqueue(Reply{Text: "running it", ToolCalls: []ToolCall{ExecCommand("echo hi > a.txt")},
		InputTokens: 50, CacheReadTokens: 30, OutputTokens: 9})
	code, names, evs := responsesEvents(t, s, `{"model":"gpt-x","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hello"}]}]}`)
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	got := strings.Join(names, ",")
	if !strings.HasPrefix(got, "response.created,response.output_item.added,response.output_text.delta") ||
		!strings.HasSuffix(got, "response.function_call_arguments.delta,response.output_item.done,response.completed") {
		t.Fatalf("event order %s", got)
	}
	var text, args string
	var done []map[string]any
	for _, e := range evs {
		switch e["type"] {
		case "response.output_text.delta":
			text += e["delta"].(string)
		case "response.function_call_arguments.delta":
			args += e["delta"].(string)
		case "response.output_item.done":
			done = append(done, e["item"].(map[string]any))
		}
	}
	if text != "running it" {
		t.Fatalf("text %q", text)
	}
	if args != `{"cmd":"echo hi > a.txt"}` {
		t.Fatalf("streamed arguments %q", args)
	}
	if len(done) != 2 || done[1]["type"] != "function_call" || done[1]["name"] != "exec_command" ||
		done[1]["arguments"] != args || done[1]["call_id"] == "" {
		t.Fatalf("done items %v", done)
	}
	msg := done[0]["content"].([]any)[0].(map[string]any)
	if done[0]["role"] != "assistant" || msg["type"] != "output_text" || msg["text"] != "running it" {
		t.Fatalf("message item %v", done[0])
	}
	usage := evs[len(evs)-1]["response"].(map[string]any)["usage"].(map[string]any)
	cached := usage["input_tokens_details"].(map[string]any)["cached_tokens"]
	if usage["input_tokens"] != 80.0 || cached != 30.0 || usage["output_tokens"] != 9.0 || usage["total_tokens"] != 89.0 {
		t.Fatalf("usage %v", usage)
	}
	reqs := s.ModelRequests("/v1/responses")
	if len(reqs) != 1 {
		t.Fatalf("recorded %d requests", len(reqs))
	}
	rr, err := ParseResponses(reqs[0].Body)
	if err != nil || rr.Model != "gpt-x" || rr.LastUserText() != "hello" || rr.HasToolResult() {
		t.Fatalf("parsed %+v %v", rr, err)
	}
}

func TestResponsesErrorStatus(t *testing.T) {
	for _, tc := range []struct {
		status   int
		wantType string
		wantMsg  string
	}{
		{503, "server_error", "Service Unavailable"},
		{429, "rate_limit_exceeded", "Too Many Requests"},
		{401, "invalid_api_key", "Unauthorized"},
	} {
		t.Run(http.StatusText(tc.status), func(t *testing.T) {
			s := Start(t)
			s.Enqueue(Reply{Status: tc.status})
			resp, err := http.Post(s.URL()+"/v1/responses", "application/json", strings.NewReader(`{"stream":true,"input":[]}`))
			if err != nil {
				t.Fatal(err)
			}
			var body struct {
				Error struct{ Type, Message string }
			}
			_ = json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if resp.StatusCode != tc.status || body.Error.Type != tc.wantType || body.Error.Message != tc.wantMsg {
				t.Fatalf("got %d %+v", resp.StatusCode, body)
			}
		})
	}
}

func TestResponsesRejectsGarbageBody(t *testing.T) {
	s := Start(t)
	s.Enqueue(Reply{Text: "kept for the next request"})
	resp, err := http.Post(s.URL()+"/v1/responses", "application/json", strings.NewReader(`{not json`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Fatalf("garbage body = %d", resp.StatusCode)
	}
	// The scripted reply was not consumed by the bad request.
	_, _, evs := responsesEvents(t, s, `{"stream":true,"input":[]}`)
	var text string
	for _, e := range evs {
		if e["type"] == "response.output_text.delta" {
			text += e["delta"].(string)
		}
	}
	if text != "kept for the next request" {
		t.Fatalf("text %q", text)
	}
}

func TestResponsesRequestHelpers(t *testing.T) {
	body := `{"model":"m","input":[
	 {"type":"message","role":"developer","content":[{"type":"input_text","text":"base"},{"type":"input_text","text":"ROLE SYSTEM"}]},
	 {"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context/>"}]},
	 {"type":"message","role":"user","content":[{"type":"input_text","text":"do it"}]},
	 {"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"ls\"}","call_id":"c1"},
	 {"type":"function_call_output","call_id":"c1","output":"Process exited with code 0"}],
	 "tools":[{"type":"function","name":"exec_command"}]}`
	rr, err := ParseResponses([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if got := rr.MessagesText("developer"); got != "base\nROLE SYSTEM" {
		t.Fatalf("developer text %q", got)
	}
	if rr.LastUserText() != "do it" || !rr.HasToolResult() || !rr.HasTool("exec_command") || rr.HasTool("apply_patch") {
		t.Fatalf("helpers on %+v", rr)
	}
	if out := rr.FunctionOutputs(); out["c1"] != "Process exited with code 0" {
		t.Fatalf("outputs %v", out)
	}
	if _, err := ParseResponses([]byte(`[1,2]`)); err == nil {
		t.Fatal("a JSON array parsed as a request")
	}
}

func TestResponsesHangSendsCreatedThenWaits(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	s.Enqueue(Reply{Hang: true})
	resp, err := http.Post(s.URL()+"/v1/responses", "application/json", strings.NewReader(`{"stream":true,"input":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	first, err := br.ReadString('\n')
	if err != nil || first != "event: response.created\n" {
		t.Fatalf("first line %q %v", first, err)
	}
	s.Close()
	rest, _ := br.ReadString(0)
	resp.Body.Close()
	if strings.Contains(rest, "response.completed") {
		t.Fatalf("hung reply completed: %q", rest)
	}
}

// The usage-limit replies carry their reset in the headers and (OpenAI)
// in the error object, as the real APIs do.
func TestUsageLimitReplies(t *testing.T) {
	srv := Start(t)
	reset := time.Now().Add(2 * time.Hour).Truncate(time.Second)
	srv.Enqueue(OpenAIUsageLimit(reset), AnthropicUsageLimit(reset))
	post := func(path, body string) (*http.Response, map[string]any) {
		t.Helper()
		resp, err := http.Post(srv.URL()+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			t.Fatal(err)
		}
		return resp, m
	}
	resp, m := post("/v1/responses", `{"model":"m","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}],"stream":true}`)
	e, _ := m["error"].(map[string]any)
	if resp.StatusCode != 429 || e["type"] != "usage_limit_reached" || e["resets_at"] != float64(reset.Unix()) ||
		resp.Header.Get("retry-after") == "" || resp.Header.Get("x-codex-primary-used-percent") != "100" ||
		resp.Header.Get("x-codex-primary-reset-at") != strconv.FormatInt(reset.Unix(), 10) {
		t.Fatalf("openai: %d %v %v", resp.StatusCode, resp.Header, m)
	}
	resp, m = post("/v1/messages", `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`)
	e, _ = m["error"].(map[string]any)
	if resp.StatusCode != 429 || e["type"] != "rate_limit_error" ||
		resp.Header.Get("anthropic-ratelimit-unified-status") != "rejected" ||
		resp.Header.Get("anthropic-ratelimit-unified-reset") != strconv.FormatInt(reset.Unix(), 10) {
		t.Fatalf("anthropic: %d %v %v", resp.StatusCode, resp.Header, m)
	}
}
