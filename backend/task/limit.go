package task

import (
	"fmt"
	"time"
)

// OnLimit says what a task does when a step's tool reaches its usage limit.
type OnLimit string

const (
	// OnLimitDefault follows settings limits.onLimit.
	OnLimitDefault OnLimit = ""
	// OnLimitWait puts the task back at the front of the queue until the
	// tool's reset time; tasks using other tools run meanwhile.
	OnLimitWait OnLimit = "wait"
	// OnLimitSwitch runs the remaining steps on another installed tool,
	// carrying the handoff of the step that hit the limit.
	OnLimitSwitch OnLimit = "switch"
)

// ParseOnLimit returns the OnLimit named s ("" is the default), or an error
// wrapping ErrInvalid.
func ParseOnLimit(s string) (OnLimit, error) {
	switch o := OnLimit(s); o {
	case OnLimitDefault, OnLimitWait, OnLimitSwitch:
		return o, nil
	}
	return "", invalid("on-limit must be wait or switch (got %q)", s)
}

// ToolPause is an agent tool paused until its usage limit resets: no step
// of it starts before Until. It is durable, so a restart keeps it.
type ToolPause struct {
	// Tool is the tool's settings name.
	Tool string `json:"tool"`
	// Until is when the tool may run again (the limit's reset time, clamped).
	Until time.Time `json:"until"`
	// PausedAt is when the pause was recorded.
	PausedAt time.Time `json:"paused_at"`
	// Reason is what paused it: "usage limit".
	Reason string `json:"reason"`
	// Message is the tool's own words about the limit (scrubbed), "" when none.
	Message string `json:"message,omitempty"`
	// TaskID is the task whose step hit the limit.
	TaskID string `json:"task_id,omitempty"`
	// Warning says how the reset time the tool reported was corrected (a
	// time in the past or too far ahead), "" when it was taken as it was.
	Warning string `json:"warning,omitempty"`
}

// Describe says "claude-code paused until 14:05 (usage limit)", in loc; a
// pause that ends on another day names the date.
func (p ToolPause) Describe(now time.Time, loc *time.Location) string {
	until := p.Until.In(loc)
	when := until.Format("15:04")
	if y, m, d := until.Date(); y != now.In(loc).Year() || m != now.In(loc).Month() || d != now.In(loc).Day() {
		when = until.Format("Jan 2 15:04")
	}
	reason := p.Reason
	if reason == "" {
		reason = "usage limit"
	}
	return fmt.Sprintf("%s paused until %s (%s)", p.Tool, when, reason)
}

// Resume reasons of a ResumePoint.
const (
	// ResumeLimit: the step's tool reached its usage limit.
	ResumeLimit = "limit"
)

// ResumePoint is where a task released to the queue mid-run goes on: the
// step that was cut short, the tool and native session it ran in, and the
// first section of the run, so the next run takes the steps already done
// from their stored reports instead of running them again.
type ResumePoint struct {
	TaskID    string `json:"task_id"`
	Iteration int    `json:"iteration"`
	// Step is the step's name ("developer", "reviewer-2").
	Step  string `json:"step"`
	Role  Role   `json:"role"`
	Round int    `json:"round"`
	// Attempt is the step's last attempt; the next run numbers on from it.
	Attempt int `json:"attempt"`
	// Tool, Model and SessionID are what the step ran with; the next run
	// continues SessionID when it runs the step with the same tool.
	Tool      string `json:"tool"`
	Model     string `json:"model,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	// Reason is ResumeLimit.
	Reason string `json:"reason"`
	// AfterSection is the last section id before the run started: the
	// run's own reports are the sections after it.
	AfterSection int64     `json:"after_section"`
	CreatedAt    time.Time `json:"created_at"`
}
