package task

// EventStrayReverted is stored when a role that may not write (planner,
// refinement, observer, reviewer, unless settings give it write access)
// changed the worktree during a step: the change was saved on a side ref
// and reverted.
const EventStrayReverted EventKind = "stray_reverted"

// StrayReverted is the payload of EventStrayReverted.
type StrayReverted struct {
	StepAttempt
	// Files are the paths the step added, changed or deleted.
	Files []string `json:"files"`
	// HeadMoved is true when the step also moved HEAD (committed, switched
	// branches); HEAD was put back.
	HeadMoved bool `json:"head_moved,omitempty"`
	// Ref and SHA name the side ref holding the changed state (a commit
	// whose first parent is the state before the step).
	Ref string `json:"ref"`
	SHA string `json:"sha"`
	// Unreverted are the paths the revert could not restore; the task then
	// fails, and Error says why.
	Unreverted []string `json:"unreverted,omitempty"`
	Error      string   `json:"error,omitempty"`
}

// Kind returns EventStrayReverted.
func (StrayReverted) Kind() EventKind { return EventStrayReverted }

// MapText applies f to the error text (file names are repository content,
// shown as they are).
func (s StrayReverted) MapText(f func(string) string) EventData {
	s.Error = f(s.Error)
	return s
}
