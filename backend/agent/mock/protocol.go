package mock

import (
	"encoding/json"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// The mock agent prints one JSON object per line: agent.Event objects
// (with "kind") while it works, then one final line of kind "result".
// Mid-run input arrives on its stdin as JSON lines {"text": "..."}.

// kindResult is the kind of the mock's final line.
const kindResult = "result"

// resultLine is the mock's final line.
type resultLine struct {
	Kind    string      `json:"kind"`
	Report  string      `json:"report"`
	Session string      `json:"session_id"`
	IsError bool        `json:"is_error,omitempty"`
	Error   string      `json:"error,omitempty"`
	Usage   agent.Usage `json:"usage"`
	// LimitResetsAt is set (Unix seconds) when the run ended on a usage limit.
	LimitResetsAt int64 `json:"limit_resets_at,omitempty"`
	// Exhausted is agent.ExhaustedTurns or ExhaustedContext when the run
	// ran out of room.
	Exhausted string `json:"exhausted,omitempty"`
}

// inputLine is one mid-run message on the mock's stdin.
type inputLine struct {
	Text string `json:"text"`
}

// encodeInput encodes a mid-run message for the mock's stdin.
func encodeInput(text string) ([]byte, error) {
	b, err := json.Marshal(inputLine{Text: text})
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
