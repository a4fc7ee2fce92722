package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
)

func init() {
	apiRoutes["/v1/responses"] = (*Server).serveResponses
}

// respSeq numbers response, item and call ids so they are unique per process.
var respSeq atomic.Int64

// serveResponses answers POST /v1/responses with the next reply, streamed as
// Responses API server-sent events: response.created, then per output item
// response.output_item.added, its deltas and response.output_item.done, then
// response.completed with usage. A reply with a Status answers with an
// OpenAI error body instead.
func (s *Server) serveResponses(w http.ResponseWriter, r *http.Request, req Request) {
	rr, err := ParseResponses(req.Body)
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
	model := rep.Model
	if model == "" {
		model = rr.Model
	}
	sse, ok := newSSE(w, r, s)
	if !ok {
		return
	}
	id := fmt.Sprintf("resp_fake%06d", respSeq.Add(1))
	created := func() error {
		return sse.event("response.created", map[string]any{"type": "response.created", "response": map[string]any{
			"id": id, "object": "response", "status": "in_progress", "model": model, "output": []any{},
		}})
	}
	if rep.Hang {
		if created() == nil {
			s.hang(r)
		}
		return
	}
	steps := []func() error{created}
	items := responseItems(rep)
	for i, it := range items {
		steps = append(steps, itemEvents(sse, i, it)...)
	}
	in, out, cr, _ := rep.usage()
	steps = append(steps, func() error {
		return sse.event("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
			"id": id, "object": "response", "status": "completed", "model": model, "output": items,
			"usage": map[string]any{
				"input_tokens":          in + cr,
				"input_tokens_details":  map[string]any{"cached_tokens": cr},
				"output_tokens":         out,
				"output_tokens_details": map[string]any{"reasoning_tokens": 0},
				"total_tokens":          in + cr + out,
			},
		}})
	})
	for i, step := range steps {
		if i > 0 && !s.wait(r, rep.ChunkDelay) {
			return
		}
		if step() != nil {
			return
		}
	}
}

// responseItems renders a reply as Responses output items: an assistant
// message with the text (when there is text or nothing else), then one
// function_call item per tool call with its input as JSON arguments.
func responseItems(rep Reply) []map[string]any {
	var items []map[string]any
	if rep.Text != "" || len(rep.ToolCalls) == 0 {
		items = append(items, map[string]any{
			"type": "message", "id": fmt.Sprintf("msg_fake%06d", respSeq.Add(1)),
			"status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": rep.Text, "annotations": []any{}}},
		})
	}
	for _, tc := range rep.ToolCalls {
		callID := tc.ID
		if callID == "" {
			callID = fmt.Sprintf("call_fake%06d", respSeq.Add(1))
		}
		input := tc.Input
		if input == nil {
			input = map[string]any{}
		}
		args := compactJSON(input)
		items = append(items, map[string]any{
			"type": "function_call", "id": fmt.Sprintf("fc_fake%06d", respSeq.Add(1)),
			"status": "completed", "call_id": callID, "name": tc.Name, "arguments": string(args),
		})
	}
	return items
}

// itemEvents streams one output item: added, its deltas, done.
func itemEvents(sse *sseWriter, i int, it map[string]any) []func() error {
	itemID := it["id"]
	var added map[string]any
	var deltas []func() error
	switch it["type"] {
	case "message":
		added = map[string]any{"type": "message", "id": itemID, "status": "in_progress", "role": "assistant", "content": []any{}}
		text := it["content"].([]any)[0].(map[string]any)["text"].(string)
		for _, part := range splitText(text, 3) {
			deltas = append(deltas, func() error {
				return sse.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta",
					"item_id": itemID, "output_index": i, "content_index": 0, "delta": part})
			})
		}
	default:
		added = map[string]any{"type": "function_call", "id": itemID, "status": "in_progress",
			"call_id": it["call_id"], "name": it["name"], "arguments": ""}
		for _, part := range splitText(it["arguments"].(string), 2) {
			deltas = append(deltas, func() error {
				return sse.event("response.function_call_arguments.delta", map[string]any{"type": "response.function_call_arguments.delta",
					"item_id": itemID, "output_index": i, "delta": part})
			})
		}
	}
	steps := []func() error{func() error {
		return sse.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": i, "item": added})
	}}
	steps = append(steps, deltas...)
	return append(steps, func() error {
		return sse.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i, "item": it})
	})
}

// openAIErrorType maps an HTTP status to the OpenAI error type.
func openAIErrorType(status int) string {
	switch {
	case status == 401:
		return "invalid_api_key"
	case status == 429:
		return "rate_limit_exceeded"
	case status >= 500:
		return "server_error"
	default:
		return "invalid_request_error"
	}
}

// writeOpenAIError writes an OpenAI API error body.
func writeOpenAIError(w http.ResponseWriter, status int, typ, msg string) {
	writeOpenAIErrorFields(w, status, typ, msg, nil)
}

// writeOpenAIErrorFields writes an OpenAI API error body with more fields
// in its error object.
func writeOpenAIErrorFields(w http.ResponseWriter, status int, typ, msg string, fields map[string]any) {
	e := map[string]any{"type": typ, "message": msg, "code": typ}
	for k, v := range fields {
		e[k] = v
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": e})
}

// compactJSON encodes v without HTML escaping, as the real API does.
func compactJSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}
