package task

import "time"

// The payloads of usage limits, session rotations and schedules.

// Limit actions of LimitReached.
const (
	// LimitActionWait: the task went back to the front of the queue until the reset.
	LimitActionWait = "wait"
	// LimitActionSwitch: the step went on with another tool.
	LimitActionSwitch = "switch"
)

// LimitReached is the payload of EventLimitReached.
type LimitReached struct {
	// Step and Role name the step whose tool is limited.
	Step string `json:"step"`
	Role Role   `json:"role,omitempty"`
	// Tool is the limited tool; ResetsAt when it may run again (clamped).
	Tool     string    `json:"tool"`
	ResetsAt time.Time `json:"resets_at"`
	// Limit is the limit the tool named ("five_hour", "seven_day", "usage"), "" when none.
	Limit string `json:"limit,omitempty"`
	// Message is the tool's own words (scrubbed).
	Message string `json:"message,omitempty"`
	// Warning says how the reported reset time was corrected, "" when it was not.
	Warning string `json:"warning,omitempty"`
	// Action is LimitActionWait or LimitActionSwitch; SwitchTo the tool the
	// step goes on with when switching.
	Action   string `json:"action"`
	SwitchTo string `json:"switch_to,omitempty"`
	// Before is true when the step did not start: its tool was already paused.
	Before bool `json:"before,omitempty"`
	// Handoff is the path of the handoff file a switch wrote ("" when none).
	Handoff string `json:"handoff,omitempty"`
}

// MapText applies f to the tool's message and the warning.
func (l LimitReached) MapText(f func(string) string) EventData {
	l.Message, l.Warning = f(l.Message), f(l.Warning)
	return l
}

// Rotation reasons of SessionRotated.
const (
	// RotateTurns: the tool ran out of turns.
	RotateTurns = "turns"
	// RotateContext: the tool ran out of context window.
	RotateContext = "context"
)

// SessionRotated is the payload of EventSessionRotated.
type SessionRotated struct {
	Step string `json:"step"`
	Role Role   `json:"role,omitempty"`
	Tool string `json:"tool"`
	// Reason is RotateTurns or RotateContext.
	Reason string `json:"reason"`
	// Rotation counts this step's rotations (1-based), at most MaxRotations.
	Rotation     int `json:"rotation"`
	MaxRotations int `json:"max_rotations"`
	// FromSession is the session that ran out; the next attempt starts a
	// fresh one with the handoff.
	FromSession string `json:"from_session,omitempty"`
	// Handoff is the path of the handoff file the fresh session starts
	// from ("" when it could not be written).
	Handoff string `json:"handoff,omitempty"`
}

// ScheduleFired is the payload of EventScheduled: the task was queued by a
// schedule's fire.
type ScheduleFired struct {
	Schedule string `json:"schedule"`
	Name     string `json:"name,omitempty"`
	// Due is the fire time; CaughtUp is true for a fire missed while the
	// app was closed and run once at start.
	Due      time.Time `json:"due"`
	CaughtUp bool      `json:"caught_up,omitempty"`
}

// Kind returns EventLimitReached.
func (LimitReached) Kind() EventKind { return EventLimitReached }

// Kind returns EventSessionRotated.
func (SessionRotated) Kind() EventKind { return EventSessionRotated }

// Kind returns EventScheduled.
func (ScheduleFired) Kind() EventKind { return EventScheduled }
