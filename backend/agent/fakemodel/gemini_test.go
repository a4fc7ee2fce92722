package fakemodel

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// geminiPost posts body to the Gemini path and returns the status and
// the decoded body: the SSE data payloads of a stream, else the one JSON
// object.
func geminiPost(t *testing.T, s *Server, path, body string) (int, []map[string]any) {
	t.Helper()
	resp, err := http.Post(s.URL()+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out []map[string]any
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		var m map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, []map[string]any{m}
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "data: "); ok {
			var m map[string]any
			if err := json.Unmarshal([]byte(d), &m); err != nil {
				t.Fatalf("bad data %q: %v", d, err)
			}
			out = append(out, m)
		}
	}
	return resp.StatusCode, out
}

// parts returns the parts of a GenerateContentResponse's first candidate.
func parts(t *testing.T, m map[string]any) []any {
	t.Helper()
	cands, _ := m["candidates"].([]any)
	if len(cands) == 0 {
		t.Fatalf("no candidates in %v", m)
	}
	return cands[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)
}

const geminiBody = `{"contents":[{"role":"user","parts":[{"text":"hello"}]}],"systemInstruction":{"parts":[{"text":"be brief"}]},` +
	`"tools":[{"functionDeclarations":[{"name":"write_file"}]}]}`

// A stream carries the text in parts, then the function call, and the
// finish reason with the usage on its last chunk; the request is recorded
// and parsed with its model and method.
func TestGeminiStreamsTextAndFunctionCall(t *testing.T) {
	s := Start(t)
	s.Enqueue(Reply{Text: "writing it", ToolCalls: []ToolCall{{Name: "write_file", Input: map[string]any{"file_path": "a.txt", "content": "hi"}}},
		InputTokens: 50, CacheReadTokens: 30, OutputTokens: 9})
	code, chunks := geminiPost(t, s, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", geminiBody)
	if code != 200 || len(chunks) < 2 {
		t.Fatalf("status %d, %d chunks", code, len(chunks))
	}
	var text string
	var call map[string]any
	for _, c := range chunks {
		for _, p := range parts(t, c) {
			pm := p.(map[string]any)
			if s, ok := pm["text"].(string); ok {
				text += s
			}
			if fc, ok := pm["functionCall"].(map[string]any); ok {
				call = fc
			}
		}
	}
	if text != "writing it" || call["name"] != "write_file" || call["args"].(map[string]any)["file_path"] != "a.txt" {
		t.Fatalf("text %q call %v", text, call)
	}
	last := chunks[len(chunks)-1]
	if last["candidates"].([]any)[0].(map[string]any)["finishReason"] != "STOP" {
		t.Errorf("last chunk %v", last)
	}
	um := last["usageMetadata"].(map[string]any)
	if um["promptTokenCount"] != float64(80) || um["cachedContentTokenCount"] != float64(30) || um["candidatesTokenCount"] != float64(9) {
		t.Errorf("usage %v", um)
	}
	reqs := s.GeminiGenerateRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d generate requests", len(reqs))
	}
	g, err := ParseGemini(reqs[0])
	if err != nil || g.Model != "gemini-2.5-flash" || g.Method != GeminiStream || g.UserText() != "hello" ||
		g.SystemText() != "be brief" || !g.HasTool("write_file") || g.HasToolResult() {
		t.Fatalf("parsed %+v %v", g, err)
	}
}

// generateContent answers with one response holding every part; a turn
// that carries a function response is seen as one; countTokens takes no
// scripted reply.
func TestGeminiGenerateAndCountTokens(t *testing.T) {
	s := Start(t)
	s.Enqueue(Reply{Text: "done"})
	code, out := geminiPost(t, s, "/v1beta/models/gemini-2.5-pro:countTokens", geminiBody)
	if code != 200 || out[0]["totalTokens"] == nil {
		t.Fatalf("countTokens %d %v", code, out)
	}
	body := `{"contents":[{"role":"user","parts":[{"text":"go"}]},{"role":"model","parts":[{"functionCall":{"name":"write_file","args":{}}}]},` +
		`{"role":"user","parts":[{"functionResponse":{"name":"write_file","response":{"output":"ok"}}}]}]}`
	code, out = geminiPost(t, s, "/v1beta/models/gemini-2.5-pro:generateContent", body)
	if code != 200 || len(parts(t, out[0])) != 1 || parts(t, out[0])[0].(map[string]any)["text"] != "done" {
		t.Fatalf("generateContent %d %v", code, out)
	}
	reqs := s.GeminiGenerateRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d generate requests (countTokens is none)", len(reqs))
	}
	if g, err := ParseGemini(reqs[0]); err != nil || !g.HasToolResult() || !strings.Contains(g.UserText(), `"output":"ok"`) {
		t.Fatalf("parsed %+v %v", g, err)
	}
}

// The usage-limit replies are 429 RESOURCE_EXHAUSTED errors with the
// details gemini reads: a RetryInfo delay until the reset (an hour: 3599
// or 3600 s, reckoned when sent), or a PerDay QuotaFailure.
func TestGeminiUsageLimitReplies(t *testing.T) {
	s := Start(t)
	s.Enqueue(GeminiUsageLimit(time.Now().Add(time.Hour)), GeminiDailyQuota(), Reply{Status: 503})
	check := func(wantCode int, wantStatus, wantDetail string) {
		t.Helper()
		code, out := geminiPost(t, s, "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", geminiBody)
		e, _ := out[0]["error"].(map[string]any)
		if code != wantCode || e["code"] != float64(wantCode) || e["status"] != wantStatus {
			t.Fatalf("got %d %v", code, out)
		}
		b, _ := json.Marshal(e["details"])
		if !strings.Contains(string(b), wantDetail) {
			t.Errorf("details %s, want %q", b, wantDetail)
		}
	}
	check(429, "RESOURCE_EXHAUSTED", `"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"3`)
	check(429, "RESOURCE_EXHAUSTED", `PerDay`)
	check(503, "UNAVAILABLE", `null`)
}

// A path that is no Gemini method is none of the API's.
func TestGeminiMethod(t *testing.T) {
	for path, want := range map[string][2]string{
		"/v1beta/models/gemini-2.5-pro:streamGenerateContent": {"gemini-2.5-pro", GeminiStream},
		"/v1beta/models/x:countTokens":                        {"x", GeminiCountTokens},
		"/v1beta/models/nomethod":                             {},
		"/v1/messages":                                        {},
	} {
		m, meth, ok := GeminiMethod(path)
		if (want == [2]string{}) == ok || m != want[0] || meth != want[1] {
			t.Errorf("%s: %q %q %v", path, m, meth, ok)
		}
	}
}
