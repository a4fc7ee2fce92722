package claude

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// maxEventText bounds the text of one event so a huge tool result cannot
// flood the event sink; the raw transcript keeps everything.
const maxEventText = 64 << 10

// Outcome is what a claude stream-json run said about itself.
type Outcome struct {
	// GotResult is true when the final "result" line arrived.
	GotResult bool
	// Report is result.result (or the last assistant text when there is no result).
	Report string
	// IsError is result.is_error.
	IsError bool
	// Subtype is result.subtype (success, error_max_turns, ...).
	Subtype string
	// ErrorText is the error the run reported, "" when none.
	ErrorText string
	// APIErrorStatus is result.api_error_status, 0 when none.
	APIErrorStatus int
	// SessionID is the native session id.
	SessionID string
	// Model is the model the CLI reported in system/init.
	Model string
	// Tools are the tools the CLI reported in system/init (without those
	// its flags deny), nil before that line.
	Tools []string
	// NumTurns is result.num_turns.
	NumTurns int
	// Usage is the result's usage and total cost.
	Usage agent.Usage
	// Retries counts system/api_retry lines.
	Retries int
	// Raw holds the last few lines that were not stream-json (CLI error text).
	Raw []string
	// Limit is the usage limit a rate_limit_event reported as reached
	// (status "rejected"), nil when none did.
	Limit *agent.Limit
}

// Parser turns the lines of `claude --output-format stream-json --verbose`
// into agent events and an Outcome. It never panics on bad input: lines it
// cannot decode become EventRaw. It is not safe for concurrent use.
type Parser struct {
	emit     func(agent.Event)
	out      Outcome
	lastText string
	// turns is the usage of each API message of the run so far, by its id
	// (the CLI repeats a message's usage on each of its content lines).
	turns map[string]apiUsage
	live  apiUsage // the sum of turns, last emitted
}

// NewParser returns a parser that sends events to emit (nil drops them).
func NewParser(emit func(agent.Event)) *Parser {
	if emit == nil {
		emit = func(agent.Event) {}
	}
	return &Parser{emit: emit}
}

// line is the union of the stream-json line shapes we read.
type line struct {
	Type      string          `json:"type"`
	Subtype   string          `json:"subtype"`
	SessionID string          `json:"session_id"`
	Model     string          `json:"model"`
	Tools     []string        `json:"tools"`
	Message   json.RawMessage `json:"message"`
	// system/api_retry
	Attempt      int     `json:"attempt"`
	MaxRetries   int     `json:"max_retries"`
	RetryDelayMs float64 `json:"retry_delay_ms"`
	ErrorStatus  *int    `json:"error_status"`
	Error        any     `json:"error"`
	// result
	IsError        bool      `json:"is_error"`
	Result         string    `json:"result"`
	NumTurns       int       `json:"num_turns"`
	TotalCostUSD   *float64  `json:"total_cost_usd"`
	Usage          *apiUsage `json:"usage"`
	APIErrorStatus *int      `json:"api_error_status"`
	Errors         []string  `json:"errors"`
	// rate_limit_event (Claude Code 2.1: the fields in rate_limit_info;
	// older builds put them at the top level)
	RateLimitInfo *rateLimitInfo `json:"rate_limit_info"`
	rateLimitInfo
}

// rateLimitInfo is the body of a rate_limit_event.
type rateLimitInfo struct {
	Status        string  `json:"status"`
	ResetsAt      float64 `json:"resetsAt"`
	RateLimitType string  `json:"rateLimitType"`
}

type apiUsage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
}

type message struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
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

// Line parses one output line (without its newline).
func (p *Parser) Line(raw []byte) {
	raw = bytes.TrimSpace(raw)
	if !printable(raw) {
		return // terminal control bytes left around the escape blob (SI, BEL)
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
		p.assistant(l)
	case "user":
		p.user(l)
	case "result":
		p.result(l)
	case "rate_limit_event":
		p.rateLimit(l)
	}
	// Other types (stream_event, ...) carry nothing the pipeline needs; the
	// transcript keeps them.
}

// Outcome returns what the stream said so far.
func (p *Parser) Outcome() Outcome {
	o := p.out
	if !o.GotResult && o.Report == "" {
		o.Report = p.lastText
	}
	o.Raw = append([]string(nil), o.Raw...)
	o.Tools = append([]string(nil), o.Tools...)
	return o
}

func (p *Parser) rawLine(raw []byte) {
	s := clip(strings.ToValidUTF8(string(raw), "\uFFFD"))
	p.out.Raw = append(p.out.Raw, s)
	if len(p.out.Raw) > 20 {
		p.out.Raw = p.out.Raw[len(p.out.Raw)-20:]
	}
	p.emit(agent.Event{Kind: agent.EventRaw, Text: s})
}

func (p *Parser) system(l line) {
	switch l.Subtype {
	case "init":
		if l.Model != "" {
			p.out.Model = l.Model
		}
		if l.Tools != nil {
			p.out.Tools = l.Tools
		}
		p.session(l.SessionID)
	case "api_retry":
		p.out.Retries++
		ev := agent.Event{Kind: agent.EventRetry, Attempt: l.Attempt, MaxAttempts: l.MaxRetries,
			RetryDelayMs: toMillis(l.RetryDelayMs)}
		if l.ErrorStatus != nil {
			ev.ErrorStatus = *l.ErrorStatus
		}
		if s, ok := l.Error.(string); ok {
			ev.Text = clip(s)
		}
		p.emit(ev)
	}
}

// rateLimit records a rate_limit_event whose status says the limit is
// reached ("rejected"); "allowed" and "allowed_warning" are no limit.
func (p *Parser) rateLimit(l line) {
	info := l.rateLimitInfo
	if l.RateLimitInfo != nil {
		info = *l.RateLimitInfo
	}
	if info.Status != "rejected" {
		return
	}
	p.out.Limit = &agent.Limit{ResetsAt: agent.EpochTime(info.ResetsAt), Kind: info.RateLimitType}
}

func (p *Parser) session(id string) {
	if id == "" || id == p.out.SessionID {
		return
	}
	p.out.SessionID = id
	p.emit(agent.Event{Kind: agent.EventSession, Text: id})
}

func (p *Parser) assistant(l line) {
	p.session(l.SessionID)
	p.liveUsage(l.Message)
	for _, b := range p.blocks(l.Message) {
		switch b.Type {
		case "text":
			if b.Text == "" {
				continue
			}
			p.lastText = b.Text
			p.emit(agent.Event{Kind: agent.EventText, Text: clip(b.Text)})
		case "tool_use":
			p.emit(agent.Event{Kind: agent.EventToolCall, Tool: b.Name, CallID: b.ID, Text: clip(compact(b.Input))})
		}
	}
}

// liveUsage emits the run's usage so far (no cost: the result line brings
// it) when an assistant message brings new usage, so budgets see a run's
// spend while it runs and not only at its end.
func (p *Parser) liveUsage(raw json.RawMessage) {
	var m message
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m.Usage == nil || m.ID == "" {
		return
	}
	if p.turns == nil {
		p.turns = map[string]apiUsage{}
	}
	if p.turns[m.ID] == *m.Usage {
		return
	}
	p.turns[m.ID] = *m.Usage
	var sum apiUsage
	for _, u := range p.turns {
		sum.InputTokens += u.InputTokens
		sum.OutputTokens += u.OutputTokens
		sum.CacheReadInputTokens += u.CacheReadInputTokens
		sum.CacheCreationInputTokens += u.CacheCreationInputTokens
	}
	if sum == p.live {
		return
	}
	p.live = sum
	p.emit(agent.Event{Kind: agent.EventUsage, Usage: &agent.Usage{InputTokens: sum.InputTokens, OutputTokens: sum.OutputTokens,
		CacheReadTokens: sum.CacheReadInputTokens, CacheWriteTokens: sum.CacheCreationInputTokens}})
}

func (p *Parser) user(l line) {
	for _, b := range p.blocks(l.Message) {
		if b.Type == "tool_result" {
			p.emit(agent.Event{Kind: agent.EventToolResult, CallID: b.ToolUseID, IsError: b.IsError, Text: clip(contentText(b.Content))})
		}
	}
}

func (p *Parser) blocks(raw json.RawMessage) []block {
	var m message
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return nil
	}
	var bs []block
	if json.Unmarshal(m.Content, &bs) != nil {
		var s string
		if json.Unmarshal(m.Content, &s) == nil && s != "" {
			return []block{{Type: "text", Text: s}}
		}
		return nil
	}
	return bs
}

func (p *Parser) result(l line) {
	p.session(l.SessionID)
	o := &p.out
	o.GotResult = true
	o.Report = l.Result
	o.IsError = l.IsError
	o.Subtype = l.Subtype
	o.NumTurns = l.NumTurns
	if l.APIErrorStatus != nil {
		o.APIErrorStatus = *l.APIErrorStatus
	}
	o.Usage = agent.Usage{}
	if l.Usage != nil {
		o.Usage = agent.Usage{InputTokens: l.Usage.InputTokens, OutputTokens: l.Usage.OutputTokens,
			CacheReadTokens: l.Usage.CacheReadInputTokens, CacheWriteTokens: l.Usage.CacheCreationInputTokens}
	}
	if l.TotalCostUSD != nil && !math.IsNaN(*l.TotalCostUSD) && !math.IsInf(*l.TotalCostUSD, 0) {
		o.Usage.CostUSD, o.Usage.CostKnown = *l.TotalCostUSD, true
	}
	o.ErrorText = ""
	if l.IsError || (l.Subtype != "" && l.Subtype != "success") {
		o.IsError = true
		o.ErrorText = errorText(l)
	}
	u := o.Usage
	p.emit(agent.Event{Kind: agent.EventUsage, Usage: &u})
}

// errorText picks the most useful error text of a failed result.
func errorText(l line) string {
	switch {
	case len(l.Errors) > 0:
		return clip(strings.Join(l.Errors, "; "))
	case strings.TrimSpace(l.Result) != "":
		return clip(l.Result)
	case l.Subtype != "" && l.Subtype != "success":
		return l.Subtype
	default:
		return "claude reported an error"
	}
}

// contentText flattens a tool result content (a string or a block list).
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var bs []block
	if json.Unmarshal(raw, &bs) != nil {
		return ""
	}
	var parts []string
	for _, b := range bs {
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
	if f > math.MaxInt32 {
		return math.MaxInt32
	}
	return int64(math.Round(f))
}

// clip bounds s to maxEventText bytes on a rune boundary.
func clip(s string) string {
	if len(s) <= maxEventText {
		return s
	}
	cut := maxEventText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// printable reports whether b holds any printable byte (non-ASCII counts).
func printable(b []byte) bool {
	for _, c := range b {
		if c > ' ' && c != 0x7f {
			return true
		}
	}
	return false
}
