package secretstest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Shape is one form in which an agent's output carries a text: printed as
// it is, JSON-escaped in a stream-json line, or inside a tool result that
// is itself a JSON document (escaped twice).
type Shape struct {
	// Name says what the form is.
	Name string
	// JSON says the line is a JSON object (and stays one after scrubbing).
	JSON bool
	// Depth is how many times the text is JSON-escaped in the line.
	Depth int
	// Stream is the line format that has this form ("" for any):
	// StreamJSON (an assistant stream of messages and tool results) or
	// ExecJSON (an exec stream of items); the adapters name their CLIs.
	Stream string
	// Line returns the line carrying text, without a line break.
	Line func(text string) string
}

// The line formats of Shape.Stream.
const (
	StreamJSON = "stream-json"
	ExecJSON   = "exec-json"
)

// Quote returns text as a JSON string.
func Quote(text string) string {
	b, err := json.Marshal(text)
	if err != nil {
		panic(err) // a string always marshals
	}
	return string(b)
}

// document is a tool's JSON output holding text (a kubectl, gcloud or MCP
// result, a cat of a JSON file).
func document(text string) string {
	return `{"stdout":` + Quote(text) + `,"stderr":"","exit_code":0}`
}

// numbered is text as claude's Read tool shows a file: each line after
// its number and an arrow.
func numbered(text string) string {
	var b strings.Builder
	for i, l := range strings.Split(text, "\n") {
		fmt.Fprintf(&b, "%6d\u2192%s\n", i+1, l)
	}
	return b.String()
}

// Shapes are the forms of agent output every secret is checked in: the
// three an agent produces (printed, JSON-escaped in claude's and codex's
// stream-json, inside a tool result holding a JSON document) and claude's
// numbered file view.
func Shapes() []Shape {
	return []Shape{
		{Name: "printed", Line: func(t string) string { return t }},
		{Name: "stream-json assistant text", JSON: true, Depth: 1, Stream: StreamJSON, Line: ClaudeText},
		{Name: "exec-json agent message", JSON: true, Depth: 1, Stream: ExecJSON, Line: CodexMessage},
		{Name: "stream-json tool result of a JSON document", JSON: true, Depth: 2, Stream: StreamJSON,
			Line: func(t string) string { return ClaudeToolResult("toolu_leak1", document(t)) }},
		{Name: "exec-json command output of a JSON document", JSON: true, Depth: 2, Stream: ExecJSON,
			Line: func(t string) string { return CodexCommand("item_leak1", "kubectl get secret -o json", document(t)) }},
		{Name: "stream-json file view", JSON: true, Depth: 1, Stream: StreamJSON,
			Line: func(t string) string { return ClaudeToolResult("toolu_leak2", numbered(t)) }},
	}
}

// ClaudeText is an assistant text line of claude's stream-json.
func ClaudeText(text string) string {
	return `{"type":"assistant","message":{"content":[{"text":` + Quote(text) + `,"type":"text"}],"id":"msg_leak","model":"model-leak","role":"assistant","stop_reason":null,"stop_sequence":null,"type":"message","usage":{"input_tokens":12,"output_tokens":1}},"parent_tool_use_id":null,"session_id":"5e551011-11a1-4a1e-9d1e-00000000000a"}`
}

// ClaudeToolResult is a tool result line of claude's stream-json.
func ClaudeToolResult(id, text string) string {
	return `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"` + id + `","type":"tool_result","content":` + Quote(text) + `}]},"parent_tool_use_id":null,"session_id":"5e551011-11a1-4a1e-9d1e-00000000000a"}`
}

// CodexMessage is an agent message line of codex's JSON output.
func CodexMessage(text string) string {
	return `{"type":"item.completed","item":{"id":"item_leak0","type":"agent_message","text":` + Quote(text) + `}}`
}

// CodexCommand is a finished command line of codex's JSON output.
func CodexCommand(id, command, output string) string {
	return `{"type":"item.completed","item":{"id":"` + id + `","type":"command_execution","command":` + Quote(command) + `,"aggregated_output":` + Quote(output) + `,"exit_code":0,"status":"completed"}}`
}
