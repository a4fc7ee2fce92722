package fakemodel

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ChatRequest is the part of an OpenAI chat-completions request tests look at.
type ChatRequest struct {
	Model    string        `json:"model"`
	Stream   bool          `json:"stream"`
	Messages []ChatMessage `json:"messages"`
	Tools    []struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

// ChatMessage is one message of a chat-completions request: system, user,
// assistant (with ToolCalls) or tool (the result of ToolCallID).
type ChatMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	ToolCallID string `json:"tool_call_id"`
}

// ParseChat decodes a recorded request body as a chat-completions request.
// It returns the decoding error for bodies that are not one.
func ParseChat(body []byte) (ChatRequest, error) {
	var c ChatRequest
	if err := json.Unmarshal(body, &c); err != nil {
		return c, fmt.Errorf("parse chat request: %w", err)
	}
	return c, nil
}

// Parts returns the message's texts: its content when a string, else its
// text parts in order (a CLI may put context of its own in parts before
// the prompt).
func (m ChatMessage) Parts() []string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []string{s}
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(m.Content, &parts) != nil {
		return nil
	}
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if p.Type == "text" || p.Type == "" {
			out = append(out, p.Text)
		}
	}
	return out
}

// Text returns the message's text parts joined by newlines.
func (m ChatMessage) Text() string { return strings.Join(m.Parts(), "\n") }

// RoleText returns the text of every message with role ("system", "user",
// "assistant", "tool"), joined by newlines.
func (c ChatRequest) RoleText(role string) string {
	var parts []string
	for _, m := range c.Messages {
		if m.Role == role {
			parts = append(parts, m.Text())
		}
	}
	return strings.Join(parts, "\n")
}

// LastUserText returns the text of the last user message, "" when there is none.
func (c ChatRequest) LastUserText() string {
	for i := len(c.Messages) - 1; i >= 0; i-- {
		if c.Messages[i].Role == "user" {
			return c.Messages[i].Text()
		}
	}
	return ""
}

// LastUserPart returns the last text part of the last user message: the
// prompt, as the CLI passed it on. "" when there is none.
func (c ChatRequest) LastUserPart() string {
	for i := len(c.Messages) - 1; i >= 0; i-- {
		if c.Messages[i].Role == "user" {
			if p := c.Messages[i].Parts(); len(p) > 0 {
				return p[len(p)-1]
			}
			return ""
		}
	}
	return ""
}

// HasToolResult reports whether the last message is a tool result, that is
// whether the request continues a turn after a tool call.
func (c ChatRequest) HasToolResult() bool {
	return len(c.Messages) > 0 && c.Messages[len(c.Messages)-1].Role == "tool"
}

// ToolResults returns the text of the tool messages by call id.
func (c ChatRequest) ToolResults() map[string]string {
	out := map[string]string{}
	for _, m := range c.Messages {
		if m.Role == "tool" {
			out[m.ToolCallID] = m.Text()
		}
	}
	return out
}

// ToolNames lists the function tools the request offers, in its order.
func (c ChatRequest) ToolNames() []string {
	names := make([]string, 0, len(c.Tools))
	for _, t := range c.Tools {
		names = append(names, t.Function.Name)
	}
	return names
}

// HasTool reports whether the request offers a function tool named name.
func (c ChatRequest) HasTool(name string) bool {
	for _, t := range c.Tools {
		if t.Function.Name == name {
			return true
		}
	}
	return false
}
