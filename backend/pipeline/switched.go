package pipeline

import "github.com/boof-runner/boof-runner/backend/agent"

// toolSwitches are the tools a task left at their usage limits, each
// mapped to the tool its remaining steps run on, and the number of the last
// handoff file written.
type toolSwitches struct {
	to       map[string]agent.Tool
	handoffs int
}

// target returns the tool the steps of tool run on since it was left.
func (ts *toolSwitches) target(tool string) (agent.Tool, bool) {
	to, ok := ts.to[tool]
	return to, ok
}

// leave records that the task left tool for to.
func (ts *toolSwitches) leave(tool string, to agent.Tool) {
	if ts.to == nil {
		ts.to = map[string]agent.Tool{}
	}
	ts.to[tool] = to
}

// nextHandoff returns the number of the next handoff file in dir: past the
// handoffs earlier runs of the task wrote there, so none is overwritten.
func (ts *toolSwitches) nextHandoff(dir string) int {
	if ts.handoffs == 0 {
		ts.handoffs = lastHandoffNo(dir, "*")
	}
	ts.handoffs++
	return ts.handoffs
}
