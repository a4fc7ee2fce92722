package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
)

func init() {
	apiRoutes["/v1/messages"] = (*Server).serveMessages
	apiRoutes["/v1/messages/count_tokens"] = (*Server).serveCountTokens
}

// msgSeq numbers message and tool-use ids so they are unique per process.
var msgSeq atomic.Int64

// MessagesRequest is the part of an Anthropic Messages request tests look at.
type MessagesRequest struct {
	Model    string          `json:"model"`
	Stream   bool            `json:"stream"`
	System   json.RawMessage `json:"system"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// ParseMessages decodes a recorded request body as a Messages request.
// It returns the decoding error for bodies that are not one.
func ParseMessages(body []byte) (MessagesRequest, error) {
	var m MessagesRequest
	if err := json.Unmarshal(body, &m); err != nil {
		return m, fmt.Errorf("parse messages request: %w", err)
	}
	return m, nil
}

// LastUserText returns the text of the last user message (text blocks and
// tool results joined by newlines), "" when there is none.
func (m MessagesRequest) LastUserText() string {
	for i := len(m.Messages) - 1; i >= 0; i-- {
		if m.Messages[i].Role != "user" {
			continue
		}
		return contentText(m.Messages[i].Content)
	}
	return ""
}

// AllText returns the text of every message, joined by newlines.
func (m MessagesRequest) AllText() string {
	var b strings.Builder
	for _, msg := range m.Messages {
		b.WriteString(contentText(msg.Content))
		b.WriteByte('\n')
	}
	return b.String()
}

// HasToolResult reports whether the last user message carries a tool result.
func (m MessagesRequest) HasToolResult() bool {
	for i := len(m.Messages) - 1; i >= 0; i-- {
		if m.Messages[i].Role == "user" {
			return strings.Contains(string(m.Messages[i].Content), `"tool_result"`)
		}
	}
	return false
}

// contentText flattens a message content (a string or a block list).
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type    string          `json:"type"`
		Text    string          `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "tool_result":
			parts = append(parts, contentText(b.Content))
		}
	}
	return strings.Join(parts, "\n")
}

// serveMessages answers POST /v1/messages with the next reply, streamed as
// SSE when the request asks for a stream and as one JSON message otherwise.
func (s *Server) serveMessages(w http.ResponseWriter, r *http.Request, req Request) {
	mr, err := ParseMessages(req.Body)
	if err != nil {
		writeAnthropicError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	rep := s.next(req)
	if !s.wait(r, rep.Delay) {
		return
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		typ, msg := rep.ErrorType, rep.ErrorMessage
		if typ == "" {
			typ = anthropicErrorType(rep.Status)
		}
		if msg == "" {
			msg = http.StatusText(rep.Status)
			if rep.Status == 529 {
				msg = "Overloaded"
			}
		}
		setHeaders(w, rep.Header)
		writeAnthropicError(w, rep.Status, typ, msg)
		return
	}
	model := rep.Model
	if model == "" {
		model = mr.Model
	}
	id := fmt.Sprintf("msg_fake%06d", msgSeq.Add(1))
	blocks := messageBlocks(rep)
	stop := "end_turn"
	if len(rep.ToolCalls) > 0 {
		stop = "tool_use"
	}
	in, out, cr, cw := rep.usage()
	if !mr.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": in, "output_tokens": out,
				"cache_read_input_tokens": cr, "cache_creation_input_tokens": cw},
		})
		return
	}
	sse, ok := newSSE(w, r, s)
	if !ok {
		return
	}
	if rep.Hang {
		s.hang(r)
		return
	}
	steps := []func() error{func() error {
		return sse.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
			"stop_reason": nil, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": in, "output_tokens": 1,
				"cache_read_input_tokens": cr, "cache_creation_input_tokens": cw},
		}})
	}}
	for i, b := range blocks {
		steps = append(steps, blockEvents(sse, i, b)...)
	}
	steps = append(steps,
		func() error {
			return sse.event("message_delta", map[string]any{"type": "message_delta",
				"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
				"usage": map[string]any{"output_tokens": out}})
		},
		func() error { return sse.event("message_stop", map[string]any{"type": "message_stop"}) },
	)
	for i, step := range steps {
		if i > 0 && !s.wait(r, rep.ChunkDelay) {
			return
		}
		if step() != nil {
			return
		}
	}
}

// messageBlocks renders a reply as Messages content blocks.
func messageBlocks(rep Reply) []map[string]any {
	var blocks []map[string]any
	if rep.Text != "" || len(rep.ToolCalls) == 0 {
		blocks = append(blocks, map[string]any{"type": "text", "text": rep.Text})
	}
	for _, tc := range rep.ToolCalls {
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("toolu_fake%06d", msgSeq.Add(1))
		}
		input := tc.Input
		if input == nil {
			input = map[string]any{}
		}
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": id, "name": tc.Name, "input": input})
	}
	return blocks
}

// blockEvents streams one content block: start, deltas, stop.
func blockEvents(sse *sseWriter, i int, b map[string]any) []func() error {
	var start map[string]any
	var deltas []map[string]any
	switch b["type"] {
	case "text":
		start = map[string]any{"type": "text", "text": ""}
		for _, part := range splitText(b["text"].(string), 3) {
			deltas = append(deltas, map[string]any{"type": "text_delta", "text": part})
		}
	default:
		start = map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}
		js, _ := json.Marshal(b["input"])
		for _, part := range splitText(string(js), 2) {
			deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": part})
		}
	}
	steps := []func() error{func() error {
		return sse.event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": start})
	}}
	for _, d := range deltas {
		steps = append(steps, func() error {
			return sse.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d})
		})
	}
	return append(steps, func() error {
		return sse.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	})
}

// splitText cuts s into at most n pieces on rune boundaries.
func splitText(s string, n int) []string {
	rs := []rune(s)
	if len(rs) == 0 {
		return nil
	}
	size := (len(rs) + n - 1) / n
	var out []string
	for len(rs) > 0 {
		k := min(size, len(rs))
		out = append(out, string(rs[:k]))
		rs = rs[k:]
	}
	return out
}

// serveCountTokens answers the token-counting endpoint with a small count.
func (s *Server) serveCountTokens(w http.ResponseWriter, _ *http.Request, req Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"input_tokens": len(req.Body)/4 + 1})
}

// anthropicErrorType maps an HTTP status to the Messages API error type.
func anthropicErrorType(status int) string {
	switch status {
	case 400:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 429:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	default:
		return "api_error"
	}
}

// writeAnthropicError writes a Messages API error body.
func writeAnthropicError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}
