package opencode

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

// rawTailLines is how many lines outside the JSON events the parser keeps.
const rawTailLines = 20

// Outcome is what an `opencode run --format json` run said about itself.
type Outcome struct {
	// SessionID is the native session id (sessionID of every event).
	SessionID string
	// Steps counts step_finish events; Finished is the last one's reason
	// ("stop" when the model ended its turn, "tool-calls" before a tool ran).
	Steps    int
	Finished string
	// Report is the text of the last message that had text.
	Report string
	// Usage is the sum of the steps' tokens and cost.
	Usage agent.Usage
	// Error is the error event's message, "" when none came.
	Error string
	// Status is the error's HTTP status (0 = none).
	Status int
	// ErrorDetail is the rest of the error event (response body and
	// headers), where a limit's reset may be named.
	ErrorDetail string
	// RetryAfter is the error response's retry-after header, "" when none.
	RetryAfter string
	// StreamErrors are the messages of the model stream errors opencode
	// logged (--print-logs), oldest first; it retries most of them itself.
	StreamErrors []string
	// Raw holds the last lines that were not JSON events.
	Raw []string
}

// Parser turns the lines of `opencode run --format json --print-logs` into
// agent events and an Outcome. It never panics on bad input: lines it
// cannot decode become EventRaw. It is not safe for concurrent use.
type Parser struct {
	emit     func(agent.Event)
	out      Outcome
	events   int    // JSON events seen
	refusals int    // stream errors seen
	lastMsg  string // message id of the last text part
	lastText []string
	// cost is the steps' summed cost; costSeen is true once one was > 0.
	cost     float64
	costSeen bool
}

// NewParser returns a parser that sends events to emit (nil drops them).
func NewParser(emit func(agent.Event)) *Parser {
	if emit == nil {
		emit = func(agent.Event) {}
	}
	return &Parser{emit: emit}
}

// event is one JSON line of opencode run --format json.
type event struct {
	Type      string `json:"type"`
	SessionID string `json:"sessionID"`
	Part      *part  `json:"part"`
	Error     *struct {
		Name string `json:"name"`
		Data struct {
			Message         string            `json:"message"`
			StatusCode      int               `json:"statusCode"`
			ResponseBody    string            `json:"responseBody"`
			ResponseHeaders map[string]string `json:"responseHeaders"`
		} `json:"data"`
	} `json:"error"`
}

// part is the part of a step_start, text, tool_use or step_finish event.
type part struct {
	MessageID string `json:"messageID"`
	Text      string `json:"text"`
	Tool      string `json:"tool"`
	CallID    string `json:"callID"`
	State     *struct {
		Status string          `json:"status"`
		Input  json.RawMessage `json:"input"`
		Output string          `json:"output"`
		Error  string          `json:"error"`
	} `json:"state"`
	Reason string `json:"reason"`
	Tokens *struct {
		Input     int64 `json:"input"`
		Output    int64 `json:"output"`
		Reasoning int64 `json:"reasoning"`
		Cache     struct {
			Read  int64 `json:"read"`
			Write int64 `json:"write"`
		} `json:"cache"`
	} `json:"tokens"`
	Cost float64 `json:"cost"`
}

// streamErrorRe finds the error of a logged model stream error:
// `level=ERROR … message="stream error" … error.error="AI_APICallError: …"`.
var streamErrorRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\blevel=ERROR\b.*\bmessage="stream error".*\berror\.error="((?:[^"\\]|\\.)*)"`)
})

// Line parses one output line (without its newline).
func (p *Parser) Line(raw []byte) {
	raw = bytes.TrimSpace(openaicli.StripEscapes(raw))
	if len(raw) == 0 {
		return
	}
	var e event
	if raw[0] != '{' || json.Unmarshal(raw, &e) != nil || e.Type == "" {
		p.rawLine(raw)
		return
	}
	p.events++
	p.session(e.SessionID)
	switch e.Type {
	case "text":
		p.text(e.Part)
	case "tool_use":
		p.toolUse(e.Part)
	case "step_finish":
		p.stepFinish(e.Part)
	case "error":
		p.error(e)
	case "reasoning":
		if e.Part != nil && strings.TrimSpace(e.Part.Text) != "" {
			p.emit(agent.Event{Kind: agent.EventText, Tool: "reasoning", Text: openaicli.Clip(e.Part.Text)})
		}
	}
	// step_start carries nothing but the session; the transcript keeps all.
}

// Outcome returns what the stream said so far.
func (p *Parser) Outcome() Outcome {
	o := p.out
	o.Report = strings.Join(p.lastText, "\n")
	o.Raw = append([]string(nil), o.Raw...)
	o.StreamErrors = append([]string(nil), o.StreamErrors...)
	return o
}

func (p *Parser) rawLine(raw []byte) {
	s := openaicli.Clip(strings.ToValidUTF8(string(raw), "\uFFFD"))
	if m := streamErrorRe().FindStringSubmatch(s); m != nil {
		msg := strings.ReplaceAll(m[1], `\"`, `"`)
		p.refusals++
		p.out.StreamErrors = append(p.out.StreamErrors, msg)
		if n := len(p.out.StreamErrors); n > rawTailLines {
			p.out.StreamErrors = p.out.StreamErrors[n-rawTailLines:]
		}
		// opencode retries it up to maxRetries times itself.
		p.emit(agent.Event{Kind: agent.EventRetry, Text: msg, ErrorStatus: statusOf(msg),
			Attempt: min(p.refusals, maxRetries), MaxAttempts: maxRetries})
		return
	}
	p.out.Raw = append(p.out.Raw, s)
	if len(p.out.Raw) > rawTailLines {
		p.out.Raw = p.out.Raw[len(p.out.Raw)-rawTailLines:]
	}
	p.emit(agent.Event{Kind: agent.EventRaw, Text: s})
}

func (p *Parser) session(id string) {
	if id == "" || id == p.out.SessionID {
		return
	}
	p.out.SessionID = id
	p.emit(agent.Event{Kind: agent.EventSession, Text: id})
}

func (p *Parser) text(pt *part) {
	if pt == nil || pt.Text == "" {
		return
	}
	if pt.MessageID != p.lastMsg {
		p.lastMsg, p.lastText = pt.MessageID, nil
	}
	p.lastText = append(p.lastText, pt.Text)
	p.emit(agent.Event{Kind: agent.EventText, Text: openaicli.Clip(pt.Text)})
}

// toolUse emits a tool call and its result: opencode prints a tool part
// once, when the call has ended.
func (p *Parser) toolUse(pt *part) {
	if pt == nil || pt.State == nil {
		return
	}
	p.emit(agent.Event{Kind: agent.EventToolCall, Tool: pt.Tool, CallID: pt.CallID, Text: openaicli.Clip(compact(pt.State.Input))})
	switch pt.State.Status {
	case "completed":
		p.emit(agent.Event{Kind: agent.EventToolResult, Tool: pt.Tool, CallID: pt.CallID, Text: openaicli.Clip(pt.State.Output)})
	case "error":
		p.emit(agent.Event{Kind: agent.EventToolResult, Tool: pt.Tool, CallID: pt.CallID, Text: openaicli.Clip(pt.State.Error), IsError: true})
	}
}

// stepFinish adds a step's tokens and cost. opencode's input excludes the
// cached tokens, as agent.Usage does; reasoning is billed as output.
func (p *Parser) stepFinish(pt *part) {
	if pt == nil {
		return
	}
	p.out.Steps++
	p.out.Finished = pt.Reason
	if tk := pt.Tokens; tk != nil {
		u := &p.out.Usage
		u.InputTokens += max(tk.Input, 0)
		u.OutputTokens += max(tk.Output, 0) + max(tk.Reasoning, 0)
		u.CacheReadTokens += max(tk.Cache.Read, 0)
		u.CacheWriteTokens += max(tk.Cache.Write, 0)
	}
	if c := pt.Cost; c > 0 && !math.IsInf(c, 0) && !math.IsNaN(c) {
		p.cost += c
		p.costSeen = true
	}
	// A zero cost is opencode not knowing the model's price: leave it to
	// the adapter's table.
	p.out.Usage.CostUSD, p.out.Usage.CostKnown = p.cost, p.costSeen
	u := p.out.Usage
	p.emit(agent.Event{Kind: agent.EventUsage, Usage: &u})
}

func (p *Parser) error(e event) {
	msg := "opencode reported an error"
	if e.Error != nil {
		d := e.Error.Data
		switch {
		case strings.TrimSpace(d.Message) != "":
			msg = d.Message
		case e.Error.Name != "":
			msg = e.Error.Name
		}
		p.out.Status = d.StatusCode
		p.out.ErrorDetail = openaicli.Clip(d.ResponseBody)
		for k, v := range d.ResponseHeaders {
			if strings.EqualFold(k, "retry-after") {
				p.out.RetryAfter = v
			}
		}
	}
	p.out.Error = openaicli.Clip(msg)
	p.emit(agent.Event{Kind: agent.EventRaw, Text: p.out.Error, IsError: true, ErrorStatus: p.out.Status})
}

// statusRe finds an HTTP status in an error message.
var statusRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(4\d\d|5\d\d)\b`) })

// rateLimitRe matches a model server's rate-limit or quota refusal in
// words (opencode logs the API's message, not its status).
var rateLimitRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)rate[ _-]?limit|too many requests|quota|usage limit|insufficient_quota`)
})

// maxRetries is how many times opencode retries a failed model call
// itself (1.18: five, with backoff or the server's retry-after).
const maxRetries = 5

// statusOf returns the HTTP status an error message names, 429 for a
// rate-limit or quota refusal named in words, 0 when neither.
func statusOf(msg string) int {
	if m := statusRe().FindString(msg); m != "" {
		n, _ := strconv.Atoi(m)
		return n
	}
	if rateLimitRe().MatchString(msg) {
		return 429
	}
	return 0
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}
