package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// sseWriter writes server-sent events and flushes each one.
type sseWriter struct {
	w http.ResponseWriter
	f http.Flusher
}

// newSSE sends the SSE response headers. It returns false when the response
// cannot be streamed.
func newSSE(w http.ResponseWriter, _ *http.Request, _ *Server) (*sseWriter, bool) {
	f, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return nil, false
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f.Flush()
	return &sseWriter{w: w, f: f}, true
}

// event writes one "event: name" with v as JSON data. It returns errClosed
// when the client went away.
func (s *sseWriter) event(name string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", name, err)
	}
	if _, err := fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, data); err != nil {
		return errClosed
	}
	s.f.Flush()
	return nil
}

// data writes one unnamed event, "data: " and v as JSON (the Gemini API's
// stream has no event names). It returns errClosed when the client went away.
func (s *sseWriter) data(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode data: %w", err)
	}
	if _, err := fmt.Fprintf(s.w, "data: %s\r\n\r\n", b); err != nil {
		return errClosed
	}
	s.f.Flush()
	return nil
}
