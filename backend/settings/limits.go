package settings

import (
	"slices"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Limits holds settings.limits: what a task does when a step's tool
// reaches its usage limit (a task's own on-limit wins).
type Limits struct {
	// OnLimit is "wait" (the task waits at the front of the queue for the
	// reset) or "switch" (the step goes on with another installed tool,
	// carrying a handoff).
	OnLimit task.OnLimit `json:"onLimit"`
	// SwitchOrder lists the tools a step may switch between when one
	// reaches its usage limit, in preference order: a step of a tool in
	// the list goes on with the first other tool of the list that is
	// installed and not paused; a tool not in the list never switches.
	// The default is every agent CLI in the order of the catalog; an
	// empty list switches nothing (the task waits).
	SwitchOrder []string `json:"switchOrder"`
}

// Sessions holds settings.sessions: when a step's native session is
// rotated to a fresh one that starts from a handoff summary.
type Sessions struct {
	// RotateAfterTurns rotates a step's session once it made this many
	// turns (tool calls); 0 turns the count off.
	RotateAfterTurns int `json:"rotateAfterTurns"`
	// RotateContextPercent rotates a step's session once its context
	// estimate (the input tokens of its last model call) passes this
	// percentage of the tool's context window; 0 turns it off.
	RotateContextPercent int `json:"rotateContextPercent"`
	// MaxRotations caps the rotations of one step; past it the step ends
	// as the tool ended it.
	MaxRotations int `json:"maxRotations"`
}

// Defaults of settings.limits and settings.sessions.
const (
	DefaultOnLimit              = task.OnLimitWait
	DefaultRotateAfterTurns     = 200
	DefaultRotateContextPercent = 85
	DefaultMaxRotations         = 3
	maxRotateTurns              = 100000
	maxRotationsCap             = 20
)

// DefaultSessions returns settings.sessions' defaults.
func DefaultSessions() Sessions {
	return Sessions{RotateAfterTurns: DefaultRotateAfterTurns, RotateContextPercent: DefaultRotateContextPercent,
		MaxRotations: DefaultMaxRotations}
}

// EffectiveOnLimit is what a task with its own on-limit o does: o, else
// settings.limits.onLimit, else wait.
func (s Settings) EffectiveOnLimit(o task.OnLimit) task.OnLimit {
	if o != task.OnLimitDefault {
		return o
	}
	if s.Limits.OnLimit != task.OnLimitDefault {
		return s.Limits.OnLimit
	}
	return DefaultOnLimit
}

// limitProblems reports the bad keys of limits and sessions.
func (s Settings) limitProblems(bad func(key, format string, args ...any)) {
	if o := s.Limits.OnLimit; o != task.OnLimitWait && o != task.OnLimitSwitch && o != task.OnLimitDefault {
		bad("limits.onLimit", "must be wait or switch (got %q)", string(o))
	}
	seen := map[string]bool{}
	for i, name := range s.Limits.SwitchOrder {
		if !slices.Contains(s.catalog.Names, name) {
			bad("limits.switchOrder", "must list tools among %s (got %q at position %d)", strings.Join(s.catalog.Names, ", "), name, i+1)
			break
		}
		if seen[name] {
			bad("limits.switchOrder", "must name each tool once (got %q twice)", name)
			break
		}
		seen[name] = true
	}
	between := func(key string, n, lo, hi int) {
		if n < lo || n > hi {
			bad(key, "must be between %d and %d (got %d)", lo, hi, n)
		}
	}
	between("sessions.rotateAfterTurns", s.Sessions.RotateAfterTurns, 0, maxRotateTurns)
	between("sessions.rotateContextPercent", s.Sessions.RotateContextPercent, 0, 100)
	between("sessions.maxRotations", s.Sessions.MaxRotations, 0, maxRotationsCap)
}
