package mock

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// outcome is what the mock's output said.
type outcome struct {
	gotResult bool
	result    resultLine
	session   string
	raw       []string
}

// parser turns mock output lines into events and an outcome.
type parser struct {
	emit func(agent.Event)
	out  outcome
	// onResult runs when the result line arrives (closes the input).
	onResult func()
}

func (p *parser) line(raw []byte) {
	raw = bytes.TrimSpace(raw)
	if !bytes.ContainsFunc(raw, func(r rune) bool { return r > ' ' && r != 0x7f }) {
		return // blank or only control bytes
	}
	var probe struct {
		Kind string `json:"kind"`
	}
	if raw[0] != '{' || json.Unmarshal(raw, &probe) != nil || probe.Kind == "" {
		s := strings.ToValidUTF8(string(raw), "\uFFFD")
		p.out.raw = append(p.out.raw, s)
		p.emit(agent.Event{Kind: agent.EventRaw, Text: s})
		return
	}
	if probe.Kind == kindResult {
		var r resultLine
		if json.Unmarshal(raw, &r) != nil {
			return
		}
		p.out.gotResult, p.out.result = true, r
		u := r.Usage
		p.emit(agent.Event{Kind: agent.EventUsage, Usage: &u})
		if p.onResult != nil {
			p.onResult()
		}
		return
	}
	var ev agent.Event
	if json.Unmarshal(raw, &ev) != nil {
		return
	}
	if ev.Kind == agent.EventSession {
		p.out.session = ev.Text
	}
	p.emit(ev)
}
