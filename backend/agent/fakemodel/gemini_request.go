package fakemodel

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// GeminiRequest is the part of a Gemini generate request tests look at,
// with the model and method of its path.
type GeminiRequest struct {
	Model, Method     string
	Contents          []GeminiContent `json:"contents"`
	SystemInstruction *GeminiContent  `json:"systemInstruction"`
	Tools             []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
}

// GeminiContent is one turn of a conversation: a role ("user", "model")
// and its parts.
type GeminiContent struct {
	Role  string       `json:"role"`
	Parts []GeminiPart `json:"parts"`
}

// GeminiPart is text, a function call of the model, or the response of a
// function call.
type GeminiPart struct {
	Text         string `json:"text"`
	FunctionCall *struct {
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
}

// errNotGemini is returned by ParseGemini for a path that is no Gemini
// model method.
var errNotGemini = errors.New("not a gemini model method")

// ParseGemini decodes a recorded request as a Gemini generate request. It
// returns an error for a path that is no Gemini method or a body that is
// not JSON.
func ParseGemini(req Request) (GeminiRequest, error) {
	var g GeminiRequest
	model, method, ok := GeminiMethod(req.Path)
	if !ok {
		return g, fmt.Errorf("parse gemini request %s: %w", req.Path, errNotGemini)
	}
	if err := json.Unmarshal(req.Body, &g); err != nil {
		return g, fmt.Errorf("parse gemini request: %w", err)
	}
	g.Model, g.Method = model, method
	return g, nil
}

// Text returns a content's text parts and function responses joined by
// newlines.
func (c GeminiContent) Text() string {
	parts := make([]string, 0, len(c.Parts))
	for _, p := range c.Parts {
		switch {
		case p.FunctionResponse != nil:
			parts = append(parts, string(p.FunctionResponse.Response))
		case p.Text != "":
			parts = append(parts, p.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// SystemText returns the system instruction's text, "" when there is none.
func (g GeminiRequest) SystemText() string {
	if g.SystemInstruction == nil {
		return ""
	}
	return g.SystemInstruction.Text()
}

// UserText returns the text of every user turn, joined by newlines.
func (g GeminiRequest) UserText() string {
	var parts []string
	for _, c := range g.Contents {
		if c.Role == "user" {
			parts = append(parts, c.Text())
		}
	}
	return strings.Join(parts, "\n")
}

// HasToolResult reports whether the last turn carries a function
// response, that is whether the request continues a turn after a tool call.
func (g GeminiRequest) HasToolResult() bool {
	if len(g.Contents) == 0 {
		return false
	}
	for _, p := range g.Contents[len(g.Contents)-1].Parts {
		if p.FunctionResponse != nil {
			return true
		}
	}
	return false
}

// HasTool reports whether the request offers a function named name.
func (g GeminiRequest) HasTool(name string) bool {
	for _, t := range g.Tools {
		for _, f := range t.FunctionDeclarations {
			if f.Name == name {
				return true
			}
		}
	}
	return false
}

// GeminiGenerateRequests returns the received generate requests (stream
// or not), in arrival order.
func (s *Server) GeminiGenerateRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if _, m, ok := GeminiMethod(r.Path); ok && (m == GeminiStream || m == GeminiGenerate) {
			out = append(out, r)
		}
	}
	return out
}

// GeminiUsageLimit is the Gemini API's answer once a quota is used up
// until reset: a 429 RESOURCE_EXHAUSTED whose RetryInfo asks to wait
// until reset. Gemini CLI 0.61 gives up at once on a retry delay above
// 5 minutes (a TerminalQuotaError whose message ends "Suggested retry
// after Ns."), prints a result with status "error" and exits 173 (429
// mod 256); a shorter delay it retries itself, up to 10 attempts.
func GeminiUsageLimit(reset time.Time) Reply {
	return Reply{Status: http.StatusTooManyRequests, ErrorType: "RESOURCE_EXHAUSTED",
		ErrorMessage: "Resource has been exhausted (e.g. check quota).", ResetAt: reset}
}

// retryInfo is the details of an error that asks to retry at reset: a
// RetryInfo whose delay is the seconds left until then.
func retryInfo(reset time.Time) []any {
	secs := max(int64(time.Until(reset).Seconds()), 1)
	return []any{map[string]any{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": strconv.FormatInt(secs, 10) + "s"}}
}

// GeminiDailyQuota is the Gemini API's answer once a per-day quota is
// used up: a 429 RESOURCE_EXHAUSTED whose QuotaFailure names a PerDay
// quota. Gemini CLI 0.61 gives up at once ("You have exhausted your daily
// quota on this model.") and exits 173; the answer names no reset time
// (the API's daily quotas reset at midnight Pacific time).
func GeminiDailyQuota() Reply {
	return Reply{Status: http.StatusTooManyRequests, ErrorType: "RESOURCE_EXHAUSTED",
		ErrorMessage: "You exceeded your current quota, please check your plan and billing details.",
		ErrorFields: map[string]any{"details": []any{
			map[string]any{"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": []any{map[string]any{
				"quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
				"quotaId":     "GenerateRequestsPerDayPerProjectPerModel-FreeTier", "quotaValue": "250",
			}}},
		}}}
}
