package fakemodel

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// chatChunks posts body to the chat-completions route and returns the
// status, the decoded data chunks in order and whether the stream ended
// with "data: [DONE]".
func chatChunks(t *testing.T, s *Server, body string) (int, []map[string]any, bool) {
	t.Helper()
	resp, err := http.Post(s.URL()+ChatPath, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var chunks []map[string]any
	done := false
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		d, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if done {
			t.Fatalf("data after [DONE]: %q", d)
		}
		if d == "[DONE]" {
			done = true
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(d), &m); err != nil {
			t.Fatalf("bad chunk %q: %v", d, err)
		}
		chunks = append(chunks, m)
	}
	return resp.StatusCode, chunks, done
}

const chatRequest = `{"model":"fake-model","stream":true,"stream_options":{"include_usage":true},
 "messages":[{"role":"system","content":"You are the developer."},{"role":"user","content":[{"type":"text","text":"Create a.txt"}]}],
 "tools":[{"type":"function","function":{"name":"write_file","parameters":{}}},{"type":"function","function":{"name":"run_shell_command"}}]}`

func TestChatStreamsTextToolCallAndUsage(t *testing.T) {
	s := Start(t)
	s.Enqueue(Reply{Text: "writing it", ToolCalls: []ToolCall{{Name: "write_file", Input: map[string]any{"file_path": "a.txt", "content": "hi\n"}}},
		InputTokens: 50, CacheReadTokens: 30, OutputTokens: 9})
	code, chunks, done := chatChunks(t, s, chatRequest)
	if code != 200 || !done || len(chunks) < 5 {
		t.Fatalf("status %d, %d chunks, done %v", code, len(chunks), done)
	}
	var text, args, name, id string
	var finish any
	for _, c := range chunks[:len(chunks)-1] {
		if c["object"] != "chat.completion.chunk" || c["model"] != "fake-model" {
			t.Fatalf("chunk %v", c)
		}
		ch := c["choices"].([]any)[0].(map[string]any)
		if f := ch["finish_reason"]; f != nil {
			finish = f
		}
		d := ch["delta"].(map[string]any)
		if s, ok := d["content"].(string); ok {
			text += s
		}
		for _, tc := range asSlice(d["tool_calls"]) {
			call := tc.(map[string]any)
			if v, ok := call["id"].(string); ok {
				id = v
			}
			fn := call["function"].(map[string]any)
			if v, ok := fn["name"].(string); ok {
				name = v
			}
			args += fn["arguments"].(string)
		}
	}
	if text != "writing it" || name != "write_file" || id == "" || args != `{"content":"hi\n","file_path":"a.txt"}` || finish != "tool_calls" {
		t.Fatalf("text %q, call %s %s %q, finish %v", text, id, name, args, finish)
	}
	last := chunks[len(chunks)-1]
	u := last["usage"].(map[string]any)
	if len(asSlice(last["choices"])) != 0 || u["prompt_tokens"] != 80.0 || u["completion_tokens"] != 9.0 ||
		u["prompt_tokens_details"].(map[string]any)["cached_tokens"] != 30.0 {
		t.Fatalf("usage chunk %v", last)
	}

	// The request log has what the CLI sent.
	reqs := s.ModelRequests(ChatPath)
	if len(reqs) != 1 {
		t.Fatalf("%d requests logged", len(reqs))
	}
	cr, err := ParseChat(reqs[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	if cr.RoleText("system") != "You are the developer." || cr.LastUserText() != "Create a.txt" || cr.LastUserPart() != "Create a.txt" || cr.HasToolResult() ||
		strings.Join(cr.ToolNames(), ",") != "write_file,run_shell_command" || !cr.HasTool("write_file") || cr.HasTool("edit") {
		t.Fatalf("parsed request %+v", cr)
	}
}

func TestChatToolResultTurnAndDefaultReply(t *testing.T) {
	s := Start(t)
	body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"},
	 {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"write_file","arguments":"{}"}}]},
	 {"role":"tool","tool_call_id":"call_1","content":"Successfully wrote a.txt"}]}`
	_, chunks, _ := chatChunks(t, s, body)
	var text string
	for _, c := range chunks {
		for _, ch := range asSlice(c["choices"]) {
			if s, ok := ch.(map[string]any)["delta"].(map[string]any)["content"].(string); ok {
				text += s
			}
		}
	}
	if text != "ok" {
		t.Fatalf("default reply %q", text)
	}
	cr, _ := ParseChat(s.ModelRequests(ChatPath)[0].Body)
	if !cr.HasToolResult() || cr.ToolResults()["call_1"] != "Successfully wrote a.txt" {
		t.Fatalf("tool result not seen: %+v", cr)
	}
}

func TestChatWithoutStreamAnswersOneCompletion(t *testing.T) {
	s := Start(t)
	s.Enqueue(Reply{Text: "a title", InputTokens: 5, OutputTokens: 2})
	resp, err := http.Post(s.URL()+ChatPath, "application/json", strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c struct {
		Object  string `json:"object"`
		Choices []struct {
			Message      struct{ Content string } `json:"message"`
			FinishReason string                   `json:"finish_reason"`
		} `json:"choices"`
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	if c.Object != "chat.completion" || len(c.Choices) != 1 || c.Choices[0].Message.Content != "a title" ||
		c.Choices[0].FinishReason != "stop" || c.Usage.PromptTokens != 5 {
		t.Fatalf("completion %+v", c)
	}
}

func TestChatQuotaExhaustedAndBadRequest(t *testing.T) {
	s := Start(t)
	reset := time.Now().Add(2 * time.Hour).Truncate(time.Second)
	s.Enqueue(ChatQuotaExhausted(reset))
	resp, err := http.Post(s.URL()+ChatPath, "application/json", strings.NewReader(chatRequest))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("retry-after-ms") != "1" || resp.Header.Get("retry-after") == "" ||
		!strings.Contains(string(b), `"code":"insufficient_quota"`) || !strings.Contains(string(b), "will reset at "+reset.UTC().Format(time.RFC3339)) {
		t.Fatalf("status %d headers %v body %s", resp.StatusCode, resp.Header, b)
	}
	resp, err = http.Post(s.URL()+ChatPath, "application/json", strings.NewReader(`{not json`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Fatalf("bad request answered %d", resp.StatusCode)
	}
}

// asSlice returns v as a slice, nil when it is not one.
func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}
