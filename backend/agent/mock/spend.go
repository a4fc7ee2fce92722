package mock

import (
	"fmt"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// What the failcall and loop markers call, and what those calls return.
const (
	FailCallCommand = "npm test"
	FailCallError   = "npm ERR! Test failed. See above for more details. (mock)"
	LoopFile        = "README.md"
	LoopOutput      = "# mock readme\n(the same every time)"
)

// spend plays the usage, failcall and loop markers of the role, in that
// order, before its work: usage events, identical failing tool calls and
// identical tool calls that make no progress. Each goes through step, so
// the delay marker paces them.
func spend(o runOpts, step func(agent.Event)) {
	if n := int64(o.script.Usage[o.role]); n > 0 {
		for i := int64(1); i <= 10; i++ {
			step(agent.Event{Kind: agent.EventUsage, Usage: &agent.Usage{InputTokens: n * i / 10}})
		}
	}
	for i := 1; i <= o.script.FailCalls[o.role]; i++ {
		id := fmt.Sprintf("fail-%d", i)
		step(agent.Event{Kind: agent.EventToolCall, Tool: "bash", CallID: id, Text: FailCallCommand})
		step(agent.Event{Kind: agent.EventToolResult, CallID: id, Text: FailCallError, IsError: true})
	}
	for i := 1; i <= o.script.Loops[o.role]; i++ {
		id := fmt.Sprintf("loop-%d", i)
		step(agent.Event{Kind: agent.EventToolCall, Tool: "read", CallID: id, Text: LoopFile})
		step(agent.Event{Kind: agent.EventToolResult, CallID: id, Text: LoopOutput})
	}
}
