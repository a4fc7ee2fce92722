package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
)

func init() {
	apiPrefixes[geminiModelsPath] = (*Server).serveGemini
}

// geminiModelsPath is the prefix of the Gemini API's model methods:
// /v1beta/models/MODEL:METHOD.
const geminiModelsPath = "/v1beta/models/"

// The Gemini API methods the fake answers.
const (
	// GeminiStream is streamGenerateContent (gemini asks ?alt=sse).
	GeminiStream = "streamGenerateContent"
	// GeminiGenerate is generateContent (one JSON answer).
	GeminiGenerate = "generateContent"
	// GeminiCountTokens is countTokens.
	GeminiCountTokens = "countTokens"
)

// GeminiMethod splits a recorded request path into the model and the
// method ("gemini-2.5-flash", "streamGenerateContent"); ok is false for a
// path that is no Gemini model method.
func GeminiMethod(path string) (model, method string, ok bool) {
	rest, found := strings.CutPrefix(path, geminiModelsPath)
	if !found {
		return "", "", false
	}
	model, method, found = strings.Cut(rest, ":")
	if !found || model == "" || method == "" {
		return "", "", false
	}
	return model, method, true
}

// serveGemini answers POST /v1beta/models/MODEL:METHOD: the generate
// methods take the next reply (streamed as SSE data lines for
// streamGenerateContent, one JSON response for generateContent, an error
// body for a reply with a Status); countTokens gets a small count and
// takes no reply.
func (s *Server) serveGemini(w http.ResponseWriter, r *http.Request, req Request) {
	model, method, ok := GeminiMethod(req.Path)
	if !ok {
		writeGeminiError(w, http.StatusNotFound, "NOT_FOUND", "unknown method "+req.Path, nil)
		return
	}
	if method == GeminiCountTokens {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"totalTokens": len(req.Body)/4 + 1})
		return
	}
	if method != GeminiStream && method != GeminiGenerate {
		writeGeminiError(w, http.StatusNotFound, "NOT_FOUND", "unknown method "+method, nil)
		return
	}
	if _, err := ParseGemini(req); err != nil {
		writeGeminiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", err.Error(), nil)
		return
	}
	rep := s.next(req)
	if !s.wait(r, rep.Delay) {
		return
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		status, msg := rep.ErrorType, rep.ErrorMessage
		if status == "" {
			status = geminiStatus(rep.Status)
		}
		if msg == "" {
			msg = http.StatusText(rep.Status)
		}
		fields := rep.ErrorFields
		if !rep.ResetAt.IsZero() {
			fields = map[string]any{"details": retryInfo(rep.ResetAt)}
			for k, v := range rep.ErrorFields {
				fields[k] = v
			}
		}
		setHeaders(w, rep.Header)
		writeGeminiError(w, rep.Status, status, msg, fields)
		return
	}
	if rep.Model != "" {
		model = rep.Model
	}
	chunks := geminiChunks(rep, model)
	if method == GeminiGenerate {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(mergeGeminiChunks(chunks))
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
	for i, c := range chunks {
		if i > 0 && !s.wait(r, rep.ChunkDelay) {
			return
		}
		if sse.data(c) != nil {
			return
		}
	}
}

// geminiChunks renders a reply as the GenerateContentResponse chunks of a
// stream: the text in a few parts, then each function call, then the
// finish reason and the usage on the last chunk.
func geminiChunks(rep Reply, model string) []map[string]any {
	var parts []map[string]any
	for _, t := range splitText(rep.Text, 3) {
		parts = append(parts, map[string]any{"text": t})
	}
	for _, tc := range rep.ToolCalls {
		args := tc.Input
		if args == nil {
			args = map[string]any{}
		}
		fc := map[string]any{"name": tc.Name, "args": args}
		if tc.ID != "" {
			fc["id"] = tc.ID
		}
		parts = append(parts, map[string]any{"functionCall": fc})
	}
	if len(parts) == 0 {
		parts = []map[string]any{{"text": ""}}
	}
	in, out, cr, _ := rep.usage()
	chunks := make([]map[string]any, 0, len(parts))
	for i, p := range parts {
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": []any{p}}, "index": 0}
		c := map[string]any{"candidates": []any{cand}, "modelVersion": model, "responseId": "fake-gemini"}
		if i == len(parts)-1 {
			cand["finishReason"] = "STOP"
			c["usageMetadata"] = map[string]any{"promptTokenCount": in + cr, "candidatesTokenCount": out,
				"cachedContentTokenCount": cr, "totalTokenCount": in + cr + out}
		}
		chunks = append(chunks, c)
	}
	return chunks
}

// mergeGeminiChunks joins a stream's chunks into the one response of
// generateContent: the text in one part, then the function calls.
func mergeGeminiChunks(chunks []map[string]any) map[string]any {
	var text strings.Builder
	var calls []any
	for _, c := range chunks {
		cand := c["candidates"].([]any)[0].(map[string]any)
		for _, p := range cand["content"].(map[string]any)["parts"].([]any) {
			if t, ok := p.(map[string]any)["text"].(string); ok {
				text.WriteString(t)
			} else {
				calls = append(calls, p)
			}
		}
	}
	parts := calls
	if text.Len() > 0 || len(calls) == 0 {
		parts = append([]any{map[string]any{"text": text.String()}}, calls...)
	}
	last := chunks[len(chunks)-1]
	return map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": last["usageMetadata"], "modelVersion": last["modelVersion"], "responseId": last["responseId"],
	}
}

// geminiStatus maps an HTTP status to the Google API's status name.
func geminiStatus(code int) string {
	switch code {
	case 400:
		return "INVALID_ARGUMENT"
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "NOT_FOUND"
	case 429:
		return "RESOURCE_EXHAUSTED"
	case 503:
		return "UNAVAILABLE"
	default:
		return "INTERNAL"
	}
}

// writeGeminiError writes a Google API error body: {"error": {code,
// message, status, and more fields such as details}}.
func writeGeminiError(w http.ResponseWriter, code int, status, msg string, fields map[string]any) {
	e := map[string]any{"code": code, "message": msg, "status": status}
	for k, v := range fields {
		e[k] = v
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": e})
}
