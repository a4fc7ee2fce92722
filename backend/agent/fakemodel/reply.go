package fakemodel

import "time"

// Reply is one scripted model answer. The same Reply drives both APIs: each
// API file renders it in its own wire format.
type Reply struct {
	// Text is the assistant text, streamed in a few deltas.
	Text string
	// ToolCalls follow the text; the turn then ends asking for tool results.
	ToolCalls []ToolCall
	// Status, when not 0 or 200, answers with this HTTP error instead.
	Status int
	// ErrorType and ErrorMessage form the error body (defaults per status).
	ErrorType    string
	ErrorMessage string
	// ErrorFields are more fields of the error object (OpenAI's
	// "resets_at" of a usage_limit_reached error).
	ErrorFields map[string]any
	// Header holds response headers sent with the reply (rate-limit
	// headers, retry-after).
	Header map[string]string
	// Delay is waited before the reply starts.
	Delay time.Duration
	// ChunkDelay is waited between streamed events (for mid-run tests).
	ChunkDelay time.Duration
	// Hang sends the response headers, then nothing until the client or the
	// server goes away (for stop and idle tests).
	Hang bool
	// Usage reported for the reply; zero values get small defaults.
	InputTokens, OutputTokens, CacheReadTokens, CacheWriteTokens int64
	// Model overrides the model name echoed back ("" = the requested one).
	Model string
	// ResetAt, on a Gemini API usage limit (GeminiUsageLimit), is the
	// reset its RetryInfo delay counts down to, reckoned when the reply is
	// sent, as the API does.
	ResetAt time.Time
}

// ToolCall is a tool use the model asks for.
type ToolCall struct {
	// ID is the call id ("" = generated).
	ID string
	// Name is the tool name, e.g. "Bash" or "Write" for claude, "exec_command" for codex.
	Name string
	// Input is the call's JSON-encodable argument object.
	Input map[string]any
}

// usage returns the reply's token counts with defaults filled in.
func (r Reply) usage() (in, out, cacheRead, cacheWrite int64) {
	in, out = r.InputTokens, r.OutputTokens
	if in == 0 {
		in = 12
	}
	if out == 0 {
		out = 7
	}
	return in, out, r.CacheReadTokens, r.CacheWriteTokens
}
