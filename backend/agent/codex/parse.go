package codex

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// Item types of codex exec --json item.* events.
const (
	itemAgentMessage = "agent_message"
	itemReasoning    = "reasoning"
	itemCommand      = "command_execution"
	itemFileChange   = "file_change"
	itemError        = "error"
	itemMCPToolCall  = "mcp_tool_call"
	itemWebSearch    = "web_search"
)

// Tool names used in agent events for codex items.
const (
	// ToolShell names command_execution items in tool events.
	ToolShell = "exec_command"
	// ToolPatch names file_change items in tool events.
	ToolPatch = "apply_patch"
	// ToolWebSearch names web_search items in tool events.
	ToolWebSearch = "web_search"
	// ToolReasoning marks reasoning summaries; they come as EventText with
	// this Tool so consumers can tell them from the agent's messages.
	ToolReasoning = "reasoning"
)

// line is one JSON line of codex exec --json. Only the fields we read.
type line struct {
	Type     string       `json:"type"`
	ThreadID string       `json:"thread_id"`
	Message  string       `json:"message"`
	Item     *item        `json:"item"`
	Usage    *ThreadUsage `json:"usage"`
	Error    *struct {
		Message string `json:"message"`
	} `json:"error"`
}

type item struct {
	ID               string `json:"id"`
	Type             string `json:"type"`
	Text             string `json:"text"`
	Message          string `json:"message"`
	Command          string `json:"command"`
	AggregatedOutput string `json:"aggregated_output"`
	ExitCode         *int   `json:"exit_code"`
	Status           string `json:"status"`
	Changes          []struct {
		Path string `json:"path"`
		Kind string `json:"kind"`
	} `json:"changes"`
	Server string `json:"server"`
	Tool   string `json:"tool"`
	Query  string `json:"query"`
}

// ThreadUsage is the usage codex reports in turn.completed and records in
// its session files. Counts are for the whole thread so far: on a resumed
// thread they include the earlier turns.
type ThreadUsage struct {
	InputTokens           int64 `json:"input_tokens"`
	CachedInputTokens     int64 `json:"cached_input_tokens"`
	CacheWriteInputTokens int64 `json:"cache_write_input_tokens"`
	OutputTokens          int64 `json:"output_tokens"`
	ReasoningOutputTokens int64 `json:"reasoning_output_tokens"`
}

// toUsage converts codex counts to agent.Usage. Codex's input_tokens include
// the cached ones; agent.Usage keeps them apart, as Claude reports them.
func (w ThreadUsage) toUsage() agent.Usage {
	return agent.Usage{
		InputTokens:      max(w.InputTokens-max(w.CachedInputTokens, 0), 0),
		OutputTokens:     max(w.OutputTokens, 0),
		CacheReadTokens:  max(w.CachedInputTokens, 0),
		CacheWriteTokens: max(w.CacheWriteInputTokens, 0),
	}
}

// sub returns w minus base, clamped at zero per field. A base above w
// cannot belong to the same thread: it is ignored and w is returned.
func (w ThreadUsage) sub(base ThreadUsage) ThreadUsage {
	if w.InputTokens < base.InputTokens || w.OutputTokens < base.OutputTokens {
		return w
	}
	d := func(a, b int64) int64 { return max(a-b, 0) }
	return ThreadUsage{
		InputTokens:           d(w.InputTokens, base.InputTokens),
		CachedInputTokens:     d(w.CachedInputTokens, base.CachedInputTokens),
		CacheWriteInputTokens: d(w.CacheWriteInputTokens, base.CacheWriteInputTokens),
		OutputTokens:          d(w.OutputTokens, base.OutputTokens),
		ReasoningOutputTokens: d(w.ReasoningOutputTokens, base.ReasoningOutputTokens),
	}
}

// Parser turns the lines codex exec --json prints into agent events and
// remembers what the result needs. It is not safe for concurrent use.
type Parser struct {
	emit func(agent.Event)
	// base is the thread's usage before this run (resumed threads).
	base ThreadUsage

	sessionID     string
	lastMessage   string
	total         ThreadUsage // last turn.completed usage, as reported
	haveUsage     bool
	turnCompleted bool
	turnFailed    string // turn.failed message
	lastError     string // last top-level error message (retries included)
	started       map[string]bool
	warnings      []string
	rawTail       []string // last few non-JSON lines
}

// rawTailLines is how many non-JSON lines the parser keeps for error text.
const rawTailLines = 3

// maxEventText bounds the text of one event so a huge command output
// cannot flood the event stream; the transcript keeps everything.
const maxEventText = 64 << 10

// clip bounds s to maxEventText bytes on a rune boundary.
func clip(s string) string {
	if len(s) <= maxEventText {
		return s
	}
	cut := maxEventText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "\n… [clipped]"
}

// NewParser returns a parser that sends events to emit (nil drops them).
// base is the thread's cumulative usage before this run, zero for a new
// thread; turn usage is reported as the difference.
func NewParser(emit func(agent.Event), base ThreadUsage) *Parser {
	if emit == nil {
		emit = func(agent.Event) {}
	}
	return &Parser{emit: emit, base: base, started: map[string]bool{}}
}

// Line parses one output line (without its newline). Lines that are not
// codex JSON events (stderr notices, terminal noise) become EventRaw.
func (p *Parser) Line(raw []byte) {
	raw = bytes.TrimRight(raw, "\r")
	trimmed := bytes.TrimSpace(stripEscapes(raw))
	if len(trimmed) == 0 {
		return
	}
	var l line
	if trimmed[0] != '{' || json.Unmarshal(trimmed, &l) != nil || l.Type == "" {
		text := clip(string(trimmed))
		if len(p.rawTail) == rawTailLines {
			p.rawTail = p.rawTail[1:]
		}
		p.rawTail = append(p.rawTail, text)
		p.emit(agent.Event{Kind: agent.EventRaw, Text: text})
		return
	}
	switch l.Type {
	case "thread.started":
		if l.ThreadID != "" {
			p.sessionID = l.ThreadID
			p.emit(agent.Event{Kind: agent.EventSession, Text: l.ThreadID})
		}
	case "turn.started":
	case "turn.completed":
		p.turnCompleted = true
		if l.Usage != nil {
			p.total, p.haveUsage = *l.Usage, true
			u := p.total.sub(p.base).toUsage()
			p.emit(agent.Event{Kind: agent.EventUsage, Usage: &u})
		}
	case "turn.failed":
		msg := "turn failed"
		if l.Error != nil && l.Error.Message != "" {
			msg = l.Error.Message
		}
		p.turnFailed = msg
		p.emit(agent.Event{Kind: agent.EventRaw, Text: msg, IsError: true})
	case "error":
		p.topError(l.Message)
	case "item.started", "item.updated", "item.completed":
		if l.Item != nil {
			p.item(l.Type, l.Item)
		}
	default:
		p.emit(agent.Event{Kind: agent.EventRaw, Text: string(trimmed)})
	}
}

// retryRe matches codex's reconnect notices, "Reconnecting... 2/5 (...)".
var retryRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Reconnecting\.\.\.\s*(?:(\d+)/(\d+))?`) })

// statusRe finds the HTTP status in "unexpected status 503 Service Unavailable".
var statusRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`unexpected status (\d{3})`) })

// topError handles a top-level error event: a retry notice or an error.
func (p *Parser) topError(msg string) {
	p.lastError = msg
	if m := retryRe().FindStringSubmatch(msg); m != nil {
		ev := agent.Event{Kind: agent.EventRetry, Text: msg}
		ev.Attempt, _ = strconv.Atoi(m[1])
		ev.MaxAttempts, _ = strconv.Atoi(m[2])
		if s := statusRe().FindStringSubmatch(msg); s != nil {
			ev.ErrorStatus, _ = strconv.Atoi(s[1])
		}
		p.emit(ev)
		return
	}
	p.emit(agent.Event{Kind: agent.EventRaw, Text: msg, IsError: true})
}

// item handles item.started, item.updated and item.completed.
func (p *Parser) item(typ string, it *item) {
	done := typ == "item.completed"
	switch it.Type {
	case itemAgentMessage:
		if done {
			p.lastMessage = it.Text
			p.emit(agent.Event{Kind: agent.EventText, Text: clip(it.Text)})
		}
	case itemReasoning:
		if done && it.Text != "" {
			p.emit(agent.Event{Kind: agent.EventText, Tool: ToolReasoning, Text: clip(it.Text)})
		}
	case itemCommand:
		p.call(it, ToolShell, it.Command, done, func() (string, bool) {
			failed := it.Status == "failed" || it.Status == "declined" || (it.ExitCode != nil && *it.ExitCode != 0)
			return it.AggregatedOutput, failed
		})
	case itemFileChange:
		p.call(it, ToolPatch, changesText(it), done, func() (string, bool) {
			return changesText(it), it.Status == "failed"
		})
	case itemMCPToolCall:
		p.call(it, it.Server+"."+it.Tool, "", done, func() (string, bool) {
			return it.Status, it.Status == "failed"
		})
	case itemWebSearch:
		p.call(it, ToolWebSearch, it.Query, done, func() (string, bool) { return "", false })
	case itemError:
		// A non-fatal error item, e.g. missing model metadata: codex goes on.
		if done {
			p.warnings = append(p.warnings, it.Message)
			p.emit(agent.Event{Kind: agent.EventRaw, Text: it.Message, IsError: true})
		}
	default:
		if done {
			js, _ := json.Marshal(it)
			p.emit(agent.Event{Kind: agent.EventRaw, Text: string(js)})
		}
	}
}

// call emits the tool call of an item once (at its start, or at its
// completion when no start was seen) and its result when it completes.
func (p *Parser) call(it *item, tool, input string, done bool, result func() (string, bool)) {
	if !p.started[it.ID] {
		p.started[it.ID] = true
		p.emit(agent.Event{Kind: agent.EventToolCall, Tool: tool, CallID: it.ID, Text: clip(input)})
	}
	if done {
		out, failed := result()
		p.emit(agent.Event{Kind: agent.EventToolResult, Tool: tool, CallID: it.ID, Text: clip(out), IsError: failed})
	}
}

// changesText renders file changes one per line, "add path".
func changesText(it *item) string {
	lines := make([]string, 0, len(it.Changes))
	for _, c := range it.Changes {
		lines = append(lines, c.Kind+" "+c.Path)
	}
	return strings.Join(lines, "\n")
}

// SessionID is the thread id from thread.started, "" before it.
func (p *Parser) SessionID() string { return p.sessionID }

// LastMessage is the text of the last completed agent_message.
func (p *Parser) LastMessage() string { return p.lastMessage }

// TurnCompleted reports whether a turn.completed event was seen.
func (p *Parser) TurnCompleted() bool { return p.turnCompleted }

// Usage is this run's usage: the last turn.completed figures minus the
// thread's usage before the run. ok is false when codex reported none.
func (p *Parser) Usage() (u agent.Usage, ok bool) {
	if !p.haveUsage {
		return agent.Usage{}, false
	}
	return p.total.sub(p.base).toUsage(), true
}

// Thread is the thread's cumulative usage as last reported; ok is false
// when codex reported none.
func (p *Parser) Thread() (u ThreadUsage, ok bool) { return p.total, p.haveUsage }

// ErrorText is the error that ended the turn: the turn.failed message, or
// else the last top-level error (a retry notice when codex was still
// retrying). It is "" when neither was seen.
func (p *Parser) ErrorText() string {
	if p.turnFailed != "" {
		return p.turnFailed
	}
	return p.lastError
}

// RawTail returns the last few lines that were not codex JSON events.
func (p *Parser) RawTail() []string { return append([]string(nil), p.rawTail...) }

// Warnings are the messages of non-fatal error items.
func (p *Parser) Warnings() []string { return append([]string(nil), p.warnings...) }

// escRe matches terminal escape sequences (CSI, OSC and two-byte escapes).
var escRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\x1b(?:\\[[0-?]*[ -/]*[@-~]|\\][^\x07\x1b]*(?:\x07|\x1b\\\\)?|[@-Z\\\\-_])")
})

// stripEscapes removes terminal escape sequences from b.
func stripEscapes(b []byte) []byte {
	if bytes.IndexByte(b, 0x1b) < 0 {
		return b
	}
	return escRe().ReplaceAll(b, nil)
}
