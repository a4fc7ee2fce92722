package qwen

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/agent/openaicli"
)

// rawTailLines is how many lines outside the stream the parser keeps.
const rawTailLines = 20

// Outcome is what a qwen stream-json run said about itself.
type Outcome struct {
	// Results counts result lines (one per turn: a follow-up message sent
	// mid-run is answered by another turn).
	Results int
	// Report is the last result's text.
	Report string
	// IsError is the last result's is_error.
	IsError bool
	// Subtype is the last result's subtype (success, error_during_execution, ...).
	Subtype string
	// ErrorText is the error the last result reported, "" when none.
	ErrorText string
	// SessionID is the native session id.
	SessionID string
	// Model is the model system/init named.
	Model string
	// Usage is the run's usage: the sum of its model calls (the result
	// line's figures are the whole session's, earlier runs included).
	Usage agent.Usage
	// RateLimited is set once qwen retries a rate limit itself with
	// system/retry events: by then it has retried silently for about a
	// minute, and it would go on for many more.
	RateLimited bool
	// RetryText is qwen's own line about that retry ("Retrying in 60s
	// (attempt 1/10): [API Error: 429 …]"), "" when none was seen.
	RetryText string
	// Raw holds the last lines that were not stream-json (qwen's stderr).
	Raw []string
}

// Parser turns the lines of `qwen --output-format stream-json` into agent
// events and an Outcome. It never panics on bad input: lines it cannot
// decode become EventRaw. It is not safe for concurrent use.
type Parser struct {
	emit func(agent.Event)
	out  Outcome
	// calls is the usage of each model call of the run, by message id.
	calls map[string]apiUsage
}

// NewParser returns a parser that sends events to emit (nil drops them).
func NewParser(emit func(agent.Event)) *Parser {
	if emit == nil {
		emit = func(agent.Event) {}
	}
	return &Parser{emit: emit, calls: map[string]apiUsage{}}
}

// line is the union of the stream-json line shapes we read.
type line struct {
	Type      string          `json:"type"`
	Subtype   string          `json:"subtype"`
	SessionID string          `json:"session_id"`
	Model     string          `json:"model"`
	Message   json.RawMessage `json:"message"`
	Data      *retryData      `json:"data"`
	IsError   bool            `json:"is_error"`
	Result    string          `json:"result"`
	Error     *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// retryData is the payload of a system/retry line: attempt and maxRetries
// are set for qwen's rate-limit retries, absent for a replayed stream.
type retryData struct {
	Attempt    int     `json:"attempt"`
	MaxRetries int     `json:"maxRetries"`
	DelayMs    float64 `json:"delayMs"`
}

type apiUsage struct {
	InputTokens     int64 `json:"input_tokens"`
	OutputTokens    int64 `json:"output_tokens"`
	CacheReadTokens int64 `json:"cache_read_input_tokens"`
}

type message struct {
	ID      string          `json:"id"`
	Content json.RawMessage `json:"content"`
	Usage   *apiUsage       `json:"usage"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// retryLineRe matches qwen's stderr line about a rate-limit retry.
var retryLineRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^Retrying in \d+s \(attempt \d+/\d+\)`)
})

// statusRe finds an HTTP status in "[API Error: 429 Rate limit reached …]".
var statusRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b([45]\d\d)\b`) })

// Line parses one output line (without its newline).
func (p *Parser) Line(raw []byte) {
	raw = bytes.TrimSpace(openaicli.StripEscapes(raw))
	if len(raw) == 0 {
		return
	}
	var l line
	if raw[0] != '{' || json.Unmarshal(raw, &l) != nil || l.Type == "" {
		p.rawLine(raw)
		return
	}
	switch l.Type {
	case "system":
		p.system(l)
	case "assistant":
		p.session(l.SessionID)
		p.assistant(l.Message)
	case "user":
		p.user(l.Message)
	case "result":
		p.result(l)
	}
	// stream_event and control lines carry nothing the pipeline needs; the
	// transcript keeps them.
}

// Outcome returns what the stream said so far.
func (p *Parser) Outcome() Outcome {
	o := p.out
	o.Raw = append([]string(nil), o.Raw...)
	return o
}

func (p *Parser) rawLine(raw []byte) {
	s := openaicli.Clip(strings.ToValidUTF8(string(raw), "\uFFFD"))
	if retryLineRe().MatchString(s) {
		p.out.RetryText = s
	}
	p.out.Raw = append(p.out.Raw, s)
	if len(p.out.Raw) > rawTailLines {
		p.out.Raw = p.out.Raw[len(p.out.Raw)-rawTailLines:]
	}
	p.emit(agent.Event{Kind: agent.EventRaw, Text: s})
}

func (p *Parser) system(l line) {
	switch l.Subtype {
	case "init":
		if l.Model != "" {
			p.out.Model = l.Model
		}
		p.session(l.SessionID)
	case "retry":
		ev := agent.Event{Kind: agent.EventRetry}
		if d := l.Data; d != nil && d.Attempt > 0 {
			p.out.RateLimited = true
			ev.Attempt, ev.MaxAttempts, ev.RetryDelayMs = d.Attempt, d.MaxRetries, toMillis(d.DelayMs)
			if m := statusRe().FindStringSubmatch(p.out.RetryText); m != nil {
				ev.ErrorStatus, _ = strconv.Atoi(m[1])
			}
			ev.Text = p.out.RetryText
		}
		p.emit(ev)
	}
}

func (p *Parser) session(id string) {
	if id == "" || id == p.out.SessionID {
		return
	}
	p.out.SessionID = id
	p.emit(agent.Event{Kind: agent.EventSession, Text: id})
}

func (p *Parser) assistant(raw json.RawMessage) {
	var m message
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return
	}
	for _, b := range blocks(m.Content) {
		switch b.Type {
		case "text":
			if b.Text != "" {
				p.emit(agent.Event{Kind: agent.EventText, Text: openaicli.Clip(b.Text)})
			}
		case "tool_use":
			p.emit(agent.Event{Kind: agent.EventToolCall, Tool: b.Name, CallID: b.ID, Text: openaicli.Clip(compact(b.Input))})
		}
	}
	p.usage(m)
}

// usage adds a model call's usage and emits the run's usage so far when it
// changed. qwen puts a call's usage on its last assistant line (the lines
// before carry zeros), each line with its own id.
func (p *Parser) usage(m message) {
	if m.Usage == nil || m.ID == "" || *m.Usage == (apiUsage{}) || p.calls[m.ID] == *m.Usage {
		return
	}
	p.calls[m.ID] = *m.Usage
	var sum agent.Usage
	for _, u := range p.calls {
		// input_tokens include the cached ones; agent.Usage keeps them apart.
		sum.InputTokens += max(u.InputTokens-max(u.CacheReadTokens, 0), 0)
		sum.CacheReadTokens += max(u.CacheReadTokens, 0)
		sum.OutputTokens += max(u.OutputTokens, 0)
	}
	p.out.Usage = sum
	u := sum
	p.emit(agent.Event{Kind: agent.EventUsage, Usage: &u})
}

func (p *Parser) user(raw json.RawMessage) {
	var m message
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return
	}
	for _, b := range blocks(m.Content) {
		if b.Type == "tool_result" {
			p.emit(agent.Event{Kind: agent.EventToolResult, CallID: b.ToolUseID, IsError: b.IsError, Text: openaicli.Clip(contentText(b.Content))})
		}
	}
}

func (p *Parser) result(l line) {
	p.session(l.SessionID)
	o := &p.out
	o.Results++
	o.Report, o.IsError, o.Subtype, o.ErrorText = l.Result, l.IsError, l.Subtype, ""
	if l.IsError || (l.Subtype != "" && l.Subtype != "success") {
		o.IsError = true
		switch {
		case l.Error != nil && strings.TrimSpace(l.Error.Message) != "":
			o.ErrorText = openaicli.Clip(l.Error.Message)
		case strings.TrimSpace(l.Result) != "":
			o.ErrorText = openaicli.Clip(l.Result)
		case l.Subtype != "":
			o.ErrorText = "qwen: " + l.Subtype
		default:
			o.ErrorText = "qwen reported an error"
		}
	}
}

// blocks decodes a message content: a block list, or a plain string.
func blocks(raw json.RawMessage) []block {
	var bs []block
	if json.Unmarshal(raw, &bs) == nil {
		return bs
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return []block{{Type: "text", Text: s}}
	}
	return nil
}

// contentText flattens a tool result content (a string or a block list).
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []string
	for _, b := range blocks(raw) {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func toMillis(f float64) int64 {
	if math.IsNaN(f) || f < 0 {
		return 0
	}
	return int64(math.Round(min(f, math.MaxInt32)))
}
