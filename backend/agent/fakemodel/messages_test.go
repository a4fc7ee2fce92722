package fakemodel

import (
	"bufio"
	"encoding/json"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// sseEvents posts body to /v1/messages and returns the data payloads by event name order.
func sseEvents(t *testing.T, s *Server, body string) (int, []map[string]any) {
	t.Helper()
	resp, err := http.Post(s.URL()+"/v1/messages", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var m map[string]any
			if err := json.Unmarshal([]byte(data), &m); err != nil {
				t.Fatalf("bad data %q: %v", data, err)
			}
			out = append(out, m)
		}
	}
	return resp.StatusCode, out
}

func TestMessagesStreamsTextAndToolUse(t *testing.T) {
	s := Start(t)
	s.Enqueue(Reply{Text: "writing", ToolCalls: []ToolCall{{Name: "Write", Input: map[string]any{"file_path": "a.txt", "content": "hi"}}}, InputTokens: 5, OutputTokens: 9})
	code, evs := sseEvents(t, s, `{"model":"claude-x","stream":true,"messages":[{"role":"user","content":"hello"}]}`)
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	var types []string
	var text, js string
	for _, e := range evs {
		types = append(types, e["type"].(string))
		if d, ok := e["delta"].(map[string]any); ok {
			if s, ok := d["text"].(string); ok {
				text += s
			}
			if s, ok := d["partial_json"].(string); ok {
				js += s
			}
		}
	}
	got := strings.Join(types, ",")
	want := "message_start,content_block_start,content_block_delta"
	if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "content_block_stop,message_delta,message_stop") {
		t.Fatalf("event order %s", got)
	}
	if text != "writing" {
		t.Fatalf("text %q", text)
	}
	var input map[string]any
	if err := json.Unmarshal([]byte(js), &input); err != nil || input["file_path"] != "a.txt" {
		t.Fatalf("tool input %q: %v", js, err)
	}
	last := evs[len(evs)-2]
	if last["delta"].(map[string]any)["stop_reason"] != "tool_use" {
		t.Fatalf("stop reason %v", last)
	}
	reqs := s.ModelRequests("/v1/messages")
	if len(reqs) != 1 {
		t.Fatalf("recorded %d requests", len(reqs))
	}
	m, err := ParseMessages(reqs[0].Body)
	if err != nil || m.LastUserText() != "hello" || m.Model != "claude-x" {
		t.Fatalf("parsed %+v %v", m, err)
	}
}

func TestMessagesErrorStatusAndDefault(t *testing.T) {
	s := Start(t)
	s.Enqueue(Reply{Status: 529})
	resp, err := http.Post(s.URL()+"/v1/messages", "application/json", strings.NewReader(`{"stream":true,"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Error struct{ Type, Message string }
	}
	_ = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != 529 || body.Error.Type != "overloaded_error" || body.Error.Message != "Overloaded" {
		t.Fatalf("got %d %+v", resp.StatusCode, body)
	}
	// The script is empty now: the default reply answers.
	_, evs := sseEvents(t, s, `{"stream":true,"messages":[{"role":"user","content":[{"type":"text","text":"again"}]}]}`)
	if len(evs) == 0 || evs[len(evs)-1]["type"] != "message_stop" {
		t.Fatalf("default reply %v", evs)
	}
}

func TestHeadRootAndUnknownPath(t *testing.T) {
	s := Start(t)
	resp, err := http.Head(s.URL() + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("HEAD / = %d", resp.StatusCode)
	}
	resp, err = http.Post(s.URL()+"/v2/nothing", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Fatalf("unknown path = %d", resp.StatusCode)
	}
	if n := len(s.Requests()); n != 2 {
		t.Fatalf("recorded %d", n)
	}
}

func TestHangEndsOnClose(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	s.Enqueue(Reply{Hang: true})
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := http.Post(s.URL()+"/v1/messages", "application/json", strings.NewReader(`{"stream":true}`))
		if err == nil {
			_, _ = bufio.NewReader(resp.Body).ReadString(0)
			resp.Body.Close()
		}
	}()
	for len(s.Requests()) == 0 {
		runtimeGosched()
	}
	s.Close()
	<-done
}

func runtimeGosched() { runtime.Gosched() }
