package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"
)

// ChatPath is the route of the OpenAI chat-completions API (the one
// OpenAI-compatible providers speak; opencode and qwen call it with a base
// URL of URL()+"/v1").
const ChatPath = "/v1/chat/completions"

func init() {
	apiRoutes[ChatPath] = (*Server).serveChat
}

// chatSeq numbers completion and call ids so they are unique per process.
var chatSeq atomic.Int64

// serveChat answers POST /v1/chat/completions with the next reply: streamed
// as chat.completion.chunk server-sent events ("data: {...}" lines ending
// with "data: [DONE]") when the request asks for a stream, else one
// chat.completion object. Text comes in a few content deltas, each tool
// call as a tool_calls delta with its name and then its arguments in
// pieces; the last choice chunk carries finish_reason ("tool_calls" or
// "stop") and a final chunk with no choices the usage. A reply with a
// Status answers with an OpenAI error body instead.
func (s *Server) serveChat(w http.ResponseWriter, r *http.Request, req Request) {
	cr, err := ParseChat(req.Body)
	if err != nil {
		writeOpenAIError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	rep := s.next(req)
	if !s.wait(r, rep.Delay) {
		return
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		typ, msg := rep.ErrorType, rep.ErrorMessage
		if typ == "" {
			typ = openAIErrorType(rep.Status)
		}
		if msg == "" {
			msg = http.StatusText(rep.Status)
		}
		setHeaders(w, rep.Header)
		writeOpenAIErrorFields(w, rep.Status, typ, msg, rep.ErrorFields)
		return
	}
	setHeaders(w, rep.Header)
	c := chatCompletion{id: fmt.Sprintf("chatcmpl-fake%06d", chatSeq.Add(1)), model: rep.Model, created: time.Now().Unix(), rep: rep}
	if c.model == "" {
		c.model = cr.Model
	}
	c.calls = chatToolCalls(rep)
	if !cr.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(c.whole())
		return
	}
	sse, ok := newSSE(w, r, s)
	if !ok {
		return
	}
	if rep.Hang {
		if chatData(sse, c.chunk(map[string]any{"role": "assistant", "content": ""}, nil)) == nil {
			s.hang(r)
		}
		return
	}
	for i, v := range c.chunks() {
		if i > 0 && !s.wait(r, rep.ChunkDelay) {
			return
		}
		if chatData(sse, v) != nil {
			return
		}
	}
	_ = chatData(sse, nil)
}

// chatCompletion is one reply rendered in the chat-completions format.
type chatCompletion struct {
	id, model string
	created   int64
	rep       Reply
	calls     []map[string]any
}

// chatToolCalls renders a reply's tool calls as chat-completions tool_calls.
func chatToolCalls(rep Reply) []map[string]any {
	calls := make([]map[string]any, 0, len(rep.ToolCalls))
	for _, tc := range rep.ToolCalls {
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("call_fake%06d", chatSeq.Add(1))
		}
		input := tc.Input
		if input == nil {
			input = map[string]any{}
		}
		calls = append(calls, map[string]any{"id": id, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": compactJSON(input)}})
	}
	return calls
}

// finish is the reply's finish_reason.
func (c chatCompletion) finish() string {
	if len(c.calls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

// usage is the reply's usage object; prompt_tokens include the cached ones,
// as the real API counts them.
func (c chatCompletion) usage() map[string]any {
	in, out, cached, _ := c.rep.usage()
	return map[string]any{"prompt_tokens": in + cached, "completion_tokens": out, "total_tokens": in + cached + out,
		"prompt_tokens_details": map[string]any{"cached_tokens": cached}}
}

// whole is the non-streamed chat.completion object.
func (c chatCompletion) whole() map[string]any {
	msg := map[string]any{"role": "assistant", "content": c.rep.Text}
	if len(c.calls) > 0 {
		msg["tool_calls"] = c.calls
	}
	return map[string]any{"id": c.id, "object": "chat.completion", "created": c.created, "model": c.model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": c.finish()}},
		"usage":   c.usage()}
}

// chunk is one chat.completion.chunk with delta in its only choice
// (finish_reason finish, nil while the reply goes on).
func (c chatCompletion) chunk(delta map[string]any, finish any) map[string]any {
	return map[string]any{"id": c.id, "object": "chat.completion.chunk", "created": c.created, "model": c.model,
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
}

// chunks are the streamed chunks of the reply, in order.
func (c chatCompletion) chunks() []map[string]any {
	out := []map[string]any{c.chunk(map[string]any{"role": "assistant", "content": ""}, nil)}
	for _, part := range splitText(c.rep.Text, 3) {
		out = append(out, c.chunk(map[string]any{"content": part}, nil))
	}
	for i, call := range c.calls {
		fn := call["function"].(map[string]any)
		out = append(out, c.chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": call["id"], "type": "function",
			"function": map[string]any{"name": fn["name"], "arguments": ""}}}}, nil))
		for _, part := range splitText(fn["arguments"].(string), 2) {
			out = append(out, c.chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i,
				"function": map[string]any{"arguments": part}}}}, nil))
		}
	}
	out = append(out, c.chunk(map[string]any{}, c.finish()))
	return append(out, map[string]any{"id": c.id, "object": "chat.completion.chunk", "created": c.created, "model": c.model,
		"choices": []any{}, "usage": c.usage()})
}

// chatData writes one unnamed server-sent event, "data: " and v as JSON,
// or the stream's end "data: [DONE]" when v is nil. It returns errClosed
// when the client went away.
func chatData(sse *sseWriter, v any) error {
	data := []byte("[DONE]")
	if v != nil {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("encode chunk: %w", err)
		}
		data = b
	}
	if _, err := fmt.Fprintf(sse.w, "data: %s\n\n", data); err != nil {
		return errClosed
	}
	sse.f.Flush()
	return nil
}
