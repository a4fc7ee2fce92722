package fakemodel

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ResponsesRequest is the part of an OpenAI Responses request tests look at.
type ResponsesRequest struct {
	Model        string          `json:"model"`
	Stream       bool            `json:"stream"`
	Instructions string          `json:"instructions"`
	Input        []ResponseInput `json:"input"`
	Tools        []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
}

// ResponseInput is one item of a Responses request's input: a message
// (Role, Content), a function_call (Name, Arguments, CallID) or a
// function_call_output (CallID, Output).
type ResponseInput struct {
	Type    string `json:"type"`
	Role    string `json:"role"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
}

// ParseResponses decodes a recorded request body as a Responses request.
// It returns the decoding error for bodies that are not one.
func ParseResponses(body []byte) (ResponsesRequest, error) {
	var r ResponsesRequest
	if err := json.Unmarshal(body, &r); err != nil {
		return r, fmt.Errorf("parse responses request: %w", err)
	}
	return r, nil
}

// Text returns the texts of a message input item joined by newlines, and the
// output of a function_call_output item.
func (in ResponseInput) Text() string {
	if in.Type == "function_call_output" {
		var s string
		if json.Unmarshal(in.Output, &s) == nil {
			return s
		}
		return string(in.Output)
	}
	parts := make([]string, 0, len(in.Content))
	for _, c := range in.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}

// MessagesText returns the text of every message input item with the given
// role ("user", "developer", "assistant"), joined by newlines.
func (r ResponsesRequest) MessagesText(role string) string {
	var parts []string
	for _, in := range r.Input {
		if (in.Type == "message" || in.Type == "") && in.Role == role {
			parts = append(parts, in.Text())
		}
	}
	return strings.Join(parts, "\n")
}

// LastUserText returns the text of the last user message, "" when there is none.
func (r ResponsesRequest) LastUserText() string {
	for i := len(r.Input) - 1; i >= 0; i-- {
		if in := r.Input[i]; (in.Type == "message" || in.Type == "") && in.Role == "user" {
			return in.Text()
		}
	}
	return ""
}

// FunctionOutputs returns the outputs of the function_call_output items
// by call id.
func (r ResponsesRequest) FunctionOutputs() map[string]string {
	out := map[string]string{}
	for _, in := range r.Input {
		if in.Type == "function_call_output" {
			out[in.CallID] = in.Text()
		}
	}
	return out
}

// HasToolResult reports whether the last input item is a function_call_output,
// that is whether the request continues a turn after a tool call.
func (r ResponsesRequest) HasToolResult() bool {
	return len(r.Input) > 0 && r.Input[len(r.Input)-1].Type == "function_call_output"
}

// HasTool reports whether the request offers a function tool named name.
func (r ResponsesRequest) HasTool(name string) bool {
	for _, t := range r.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// ExecCommand returns a codex shell tool call running cmd.
func ExecCommand(cmd string) ToolCall {
	return ToolCall{Name: "exec_command", Input: map[string]any{"cmd": cmd}}
}
