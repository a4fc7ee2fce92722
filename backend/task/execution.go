package task

import "time"

// ExecOutcome is how one execution ended.
type ExecOutcome string

const (
	// OutcomeSucceeded is a step that exited cleanly.
	OutcomeSucceeded ExecOutcome = "succeeded"
	// OutcomeFailed is a step that failed for good.
	OutcomeFailed ExecOutcome = "failed"
	// OutcomeStopped is a step the user stopped.
	OutcomeStopped ExecOutcome = "stopped"
	// OutcomeStalled is a step the idle watchdog or deadline ended.
	OutcomeStalled ExecOutcome = "stalled"
	// OutcomeTransient is a step that failed with a transient error and may be retried.
	OutcomeTransient ExecOutcome = "transient"
)

// Valid reports whether o is one of the outcomes above.
func (o ExecOutcome) Valid() bool {
	switch o {
	case OutcomeSucceeded, OutcomeFailed, OutcomeStopped, OutcomeStalled, OutcomeTransient:
		return true
	}
	return false
}

// Execution is one role step attempt. EndedAt is nil while it is open.
type Execution struct {
	ID             int64  `json:"id"`
	TaskID         string `json:"task_id"`
	Iteration      int    `json:"iteration"`
	Role           Role   `json:"role"`
	Round          int    `json:"round"`
	Attempt        int    `json:"attempt"`
	Tool           string `json:"tool"`
	Model          string `json:"model"`
	TranscriptPath string `json:"transcript_path"`
	PID            int    `json:"pid"`
	PGID           int    `json:"pgid"`
	PIDs           []int  `json:"pids"`
	// Starts holds the start time (clock ticks since boot) of PID and of
	// each of PIDs when they were recorded; nil for a step recorded before
	// start times were kept.
	Starts    map[int]uint64 `json:"starts,omitempty"`
	StartedAt time.Time      `json:"started_at"`
	EndedAt   *time.Time     `json:"ended_at,omitempty"`
	Outcome   ExecOutcome    `json:"outcome,omitempty"`
	ExitCode  *int           `json:"exit_code,omitempty"`
	Usage     Usage          `json:"usage"`
	// CostEstimated is true when the cost came from the tool's price table,
	// not from the tool itself.
	CostEstimated bool `json:"cost_estimated"`
}

// Normalize checks a new execution and fills its defaults (iteration and
// attempt 1, an empty pid list). It returns an error wrapping ErrInvalid for
// an unknown role or a negative counter.
func (e *Execution) Normalize() error {
	if _, err := ParseStepRole(string(e.Role)); err != nil {
		return err
	}
	if e.Iteration == 0 {
		e.Iteration = 1
	}
	if e.Attempt == 0 {
		e.Attempt = 1
	}
	if e.Iteration < 0 || e.Round < 0 || e.Attempt < 0 {
		return invalid("execution iteration, round and attempt must not be negative")
	}
	if e.PIDs == nil {
		e.PIDs = []int{}
	}
	return nil
}

// Injection is a prompt the user injected into a task. It is picked up before
// the next step; Step and AppliedAt are set once it has been applied.
type Injection struct {
	ID        int64      `json:"id"`
	TaskID    string     `json:"task_id"`
	Text      string     `json:"text"`
	Step      string     `json:"step,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	AppliedAt *time.Time `json:"applied_at,omitempty"`
}
