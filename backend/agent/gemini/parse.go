package gemini

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// maxEventText bounds the text of one event so a huge tool result cannot
// flood the event sink; the raw transcript keeps everything.
const maxEventText = 64 << 10

// maxRaw is how many non-JSON lines the Outcome keeps (gemini's stderr).
const maxRaw = 20

// Outcome is what a gemini stream-json run said about itself.
type Outcome struct {
	// GotResult is true when the final "result" line arrived.
	GotResult bool
	// Status is the result's status: "success" or "error".
	Status string
	// ErrorType and ErrorText are the result's error, "" when none.
	ErrorType, ErrorText string
	// LastError is the message of the last "error" line (a warning or an
	// error gemini went on after), "" when none.
	LastError string
	// ResultAt is the result line's timestamp, zero when it has none:
	// when gemini gave up, which a retry delay it names counts from.
	ResultAt time.Time
	// SessionID is the session id of the init line.
	SessionID string
	// Model is the model of the init line.
	Model string
	// Report is the assistant's text after its last tool call (its last
	// non-empty stretch of text when it ended on a tool call).
	Report string
	// Usage is the result's usage: tokens summed over the models gemini
	// used, priced per model (see usageOf).
	Usage agent.Usage
	// Models are the result's tokens per model.
	Models map[string]ModelTokens
	// ToolCalls counts tool_use lines.
	ToolCalls int
	// Raw holds the last lines that were not stream-json (gemini's stderr).
	Raw []string
}

// ModelTokens is one model's line of the result's stats.
type ModelTokens struct {
	Total  int64 `json:"total_tokens"`
	Prompt int64 `json:"input_tokens"` // the whole prompt, cached part included
	Output int64 `json:"output_tokens"`
	Cached int64 `json:"cached"`
	Input  int64 `json:"input"` // the prompt less its cached part
}

// Parser turns the lines of `gemini --output-format stream-json` into
// agent events and an Outcome. It never panics on bad input: lines it
// cannot decode become EventRaw. It is not safe for concurrent use.
type Parser struct {
	emit func(agent.Event)
	out  Outcome
	// text is the assistant message being streamed (gemini sends it in
	// deltas); it becomes one EventText when something else comes.
	text strings.Builder
	// stretch is the text since the last tool call; last the last
	// non-empty stretch.
	stretch, last string
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
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	SessionID string    `json:"session_id"`
	Model     string    `json:"model"`
	// message
	Role    string `json:"role"`
	Content string `json:"content"`
	// tool_use
	ToolName   string          `json:"tool_name"`
	ToolID     string          `json:"tool_id"`
	Parameters json.RawMessage `json:"parameters"`
	// tool_result and result
	Status string     `json:"status"`
	Output string     `json:"output"`
	Error  *lineError `json:"error"`
	// error
	Severity string `json:"severity"`
	Message  string `json:"message"`
	// result
	Stats *struct {
		InputTokens  int64                  `json:"input_tokens"`
		OutputTokens int64                  `json:"output_tokens"`
		TotalTokens  int64                  `json:"total_tokens"`
		Cached       int64                  `json:"cached"`
		Input        int64                  `json:"input"`
		Models       map[string]ModelTokens `json:"models"`
	} `json:"stats"`
}

type lineError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Line parses one output line (without its newline).
func (p *Parser) Line(raw []byte) {
	raw = bytes.TrimSpace(raw)
	if !printable(raw) {
		return
	}
	var l line
	if raw[0] != '{' || json.Unmarshal(raw, &l) != nil || l.Type == "" {
		p.rawLine(raw)
		return
	}
	if l.Type != "message" {
		p.flush()
	}
	switch l.Type {
	case "init":
		p.out.Model = l.Model
		p.session(l.SessionID)
	case "message":
		if l.Role == "assistant" {
			p.text.WriteString(l.Content)
		}
	case "tool_use":
		p.out.ToolCalls++
		p.stretch = ""
		p.emit(agent.Event{Kind: agent.EventToolCall, Tool: l.ToolName, CallID: l.ToolID, Text: clip(compact(l.Parameters))})
	case "tool_result":
		text := l.Output
		if l.Error != nil && l.Error.Message != "" && (text == "" || l.Status == "error") {
			text = l.Error.Message
		}
		p.emit(agent.Event{Kind: agent.EventToolResult, CallID: l.ToolID, IsError: l.Status == "error", Text: clip(text)})
	case "error":
		p.out.LastError = clip(l.Message)
		p.emit(agent.Event{Kind: agent.EventRaw, Text: "gemini " + l.Severity + ": " + clip(l.Message)})
	case "result":
		p.result(l)
	}
}

// flush ends the assistant message being streamed: one text event.
func (p *Parser) flush() {
	if p.text.Len() == 0 {
		return
	}
	t := p.text.String()
	p.text.Reset()
	p.stretch += t
	if strings.TrimSpace(p.stretch) != "" {
		p.last = p.stretch
	}
	p.emit(agent.Event{Kind: agent.EventText, Text: clip(t)})
}

func (p *Parser) session(id string) {
	if id == "" || id == p.out.SessionID {
		return
	}
	p.out.SessionID = id
	p.emit(agent.Event{Kind: agent.EventSession, Text: id})
}

func (p *Parser) result(l line) {
	o := &p.out
	o.GotResult = true
	o.Status = l.Status
	o.ResultAt = l.Timestamp
	o.ErrorType, o.ErrorText = "", ""
	if l.Error != nil {
		o.ErrorType, o.ErrorText = l.Error.Type, clip(strings.TrimSpace(l.Error.Message))
	}
	if l.Status != "success" && o.ErrorText == "" {
		o.ErrorText = o.LastError
		if o.ErrorText == "" {
			o.ErrorText = "gemini reported an error"
		}
	}
	if l.Stats != nil {
		o.Models = l.Stats.Models
		if len(o.Models) == 0 && l.Stats.TotalTokens > 0 {
			o.Models = map[string]ModelTokens{o.Model: {Total: l.Stats.TotalTokens, Prompt: l.Stats.InputTokens,
				Output: l.Stats.OutputTokens, Cached: l.Stats.Cached, Input: l.Stats.Input}}
		}
	}
	o.Usage = usageOf(o.Models)
	u := o.Usage
	p.emit(agent.Event{Kind: agent.EventUsage, Usage: &u})
}

// usageOf sums the tokens of every model: input is the prompt less its
// cached part, output everything the model produced (the answer, its
// thoughts and tool-use tokens: total less prompt). The cost is each
// model's tokens at its list price, known when every model that used
// tokens has a price.
func usageOf(models map[string]ModelTokens) agent.Usage {
	var u agent.Usage
	known := true
	for name, m := range models {
		input := m.Input
		if input == 0 && m.Prompt > m.Cached {
			input = m.Prompt - m.Cached
		}
		out := max(m.Output, m.Total-m.Prompt)
		mu := agent.Usage{InputTokens: input, OutputTokens: out, CacheReadTokens: m.Cached}
		u = u.Add(mu)
		if mu == (agent.Usage{}) {
			continue
		}
		price, ok := Prices.Lookup(name)
		if !ok {
			known = false
			continue
		}
		u.CostUSD += price.Cost(taskUsage(mu))
	}
	if known && u != (agent.Usage{}) {
		u.CostKnown = true
	} else {
		u.CostUSD = 0
	}
	return u
}

// Outcome returns what the stream said so far.
func (p *Parser) Outcome() Outcome {
	p.flush()
	o := p.out
	o.Report = p.stretch
	if strings.TrimSpace(o.Report) == "" {
		o.Report = p.last
	}
	o.Raw = append([]string(nil), o.Raw...)
	return o
}

func (p *Parser) rawLine(raw []byte) {
	s := clip(plain(strings.ToValidUTF8(string(raw), "\uFFFD")))
	if s == "" {
		return
	}
	p.out.Raw = append(p.out.Raw, s)
	if len(p.out.Raw) > maxRaw {
		p.out.Raw = p.out.Raw[len(p.out.Raw)-maxRaw:]
	}
	p.emit(agent.Event{Kind: agent.EventRaw, Text: s})
}

// escapeRe matches terminal escape sequences: CSI (colours, clearing)
// and OSC (titles, links).
var escapeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)?|\x1b.?`)
})

// plain is s without terminal escape sequences and control characters
// (tabs become spaces): what gemini printed, fit for a one-line message.
func plain(s string) string {
	s = escapeRe().ReplaceAllString(s, "")
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f:
			return -1
		}
		return r
	}, s))
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
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
