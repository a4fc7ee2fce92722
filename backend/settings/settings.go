// Package settings holds the schema of settings.json, its defaults and
// validation, loading that never rewrites the user's file, atomic saving
// that keeps unknown keys, and the dotted get/set used by the CLI and UI.
package settings

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Catalog is what settings knows of the agent tools. backend/host builds
// it from the registered adapters; here the names are opaque strings.
type Catalog struct {
	// Names lists the tools a role may be assigned, in preference order: a
	// role without a setting uses the first one installed, else the last.
	Names []string
	// Configurable lists the tools that take tools.<name>.path and .env.
	Configurable []string
	// Installed reports whether a tool's CLI is installed; nil means none is.
	Installed func(name string) bool
	// SwitchOrder is the default of limits.switchOrder: the tools a step
	// may switch between on a usage limit, in preference order.
	SwitchOrder []string
}

// Default returns the first of Names that is installed, else the last of
// Names ("" when there are none).
func (c Catalog) Default() string {
	if len(c.Names) == 0 {
		return ""
	}
	for _, n := range c.Names {
		if c.Installed != nil && c.Installed(n) {
			return n
		}
	}
	return c.Names[len(c.Names)-1]
}

// Rule says how Default chooses, e.g. "a if installed, else b, else c".
func (c Catalog) Rule() string {
	switch len(c.Names) {
	case 0:
		return "no tool"
	case 1:
		return c.Names[0]
	}
	return c.Names[0] + " if installed, else " + strings.Join(c.Names[1:], ", else ")
}

// Defaults of the numeric and policy settings.
const (
	DefaultConcurrency        = 1
	DefaultMaxFixRounds       = 2
	DefaultMaxInlineDiffBytes = 120000
	DefaultTransientRetries   = 2
	DefaultIdleTimeoutMs      = 1200000
	DefaultGraceMs            = 5000
	DefaultOnDone             = "keep-branch"
	DefaultOnFailure          = "keep"
)

// DefaultBackoffMs is the default delay before each transient retry; the
// last entry repeats.
var DefaultBackoffMs = []int64{30000, 120000}

// ErrInvalid is wrapped by every validation error; the error text names
// the offending key.
var ErrInvalid = errors.New("invalid settings")

// ErrMalformed is wrapped when settings.json is not a JSON object.
var ErrMalformed = errors.New("malformed settings file")

// ErrUnknownKey is returned by Get for a key that has no value.
var ErrUnknownKey = errors.New("unknown settings key")

// KeyError names the settings key a problem was found at.
type KeyError struct {
	Key    string
	Reason string
}

// Error returns "settings key <key>: <reason>".
func (e *KeyError) Error() string { return fmt.Sprintf("settings key %s: %s", e.Key, e.Reason) }

// Unwrap returns ErrInvalid.
func (e *KeyError) Unwrap() error { return ErrInvalid }

// ToolRef assigns a tool (and optionally a model) to a role.
type ToolRef struct {
	Tool  string `json:"tool"`
	Model string `json:"model,omitempty"`
	// Write gives a role other than the developer write access to the
	// worktree (roles.<role>.write); nil means the default: only the
	// developer writes. The developer cannot be made read-only.
	Write *bool `json:"write,omitempty"`
}

// Runner holds settings.runner.
type Runner struct {
	// Enabled pauses the queue when false (between tasks).
	Enabled bool `json:"enabled"`
	// Concurrency is how many tasks run at once.
	Concurrency int `json:"concurrency"`
	// RunMissedSchedules runs a schedule once at start when fires were
	// missed while the app was closed; off, the missed fires are only logged.
	RunMissedSchedules bool `json:"runMissedSchedules"`
}

// Roles holds settings.roles; Observer nil means no observer step.
type Roles struct {
	Planner    ToolRef  `json:"planner"`
	Refinement ToolRef  `json:"refinement"`
	Developer  ToolRef  `json:"developer"`
	Observer   *ToolRef `json:"observer,omitempty"`
	Reviewer   ToolRef  `json:"reviewer"`
}

// Review holds settings.review.
type Review struct {
	// Gate enforces verdicts when true.
	Gate bool `json:"gate"`
	// MaxFixRounds is the developer fix rounds allowed per reviewing role.
	MaxFixRounds int `json:"maxFixRounds"`
	// MaxInlineDiffBytes is the largest diff inlined in prompts.
	MaxInlineDiffBytes int `json:"maxInlineDiffBytes"`
}

// Worktree holds settings.worktree.
type Worktree struct {
	Root      string `json:"root,omitempty"`
	OnDone    string `json:"onDone"`
	OnFailure string `json:"onFailure"`
}

// Retries holds settings.retries.
type Retries struct {
	// Transient is the retry budget per step (0 disables retries).
	Transient int `json:"transient"`
	// BackoffMs is the delay before each retry; the last entry repeats.
	BackoffMs []int64 `json:"backoffMs"`
	// IdleTimeoutMs stops a step that prints nothing for this long.
	IdleTimeoutMs int64 `json:"idleTimeoutMs"`
}

// Stop holds settings.stop.
type Stop struct {
	// GraceMs is the time between SIGTERM and SIGKILL.
	GraceMs int64 `json:"graceMs"`
}

// ToolConfig holds settings.tools.<name>.
type ToolConfig struct {
	// Path is the CLI executable ("" = found on PATH).
	Path string `json:"path,omitempty"`
	// Env is extra environment for the tool's processes.
	Env map[string]string `json:"env,omitempty"`
}

// Settings is the effective configuration: the user's file over the defaults.
type Settings struct {
	WorkingDirectory string                `json:"workingDirectory"`
	Runner           Runner                `json:"runner"`
	Roles            Roles                 `json:"roles"`
	Review           Review                `json:"review"`
	Worktree         Worktree              `json:"worktree"`
	Retries          Retries               `json:"retries"`
	Stop             Stop                  `json:"stop"`
	UI               UI                    `json:"ui"`
	Verify           Verify                `json:"verify"`
	Tools            map[string]ToolConfig `json:"tools,omitempty"`
	Budgets          Budgets               `json:"budgets"`
	Breakers         Breakers              `json:"breakers"`
	Limits           Limits                `json:"limits"`
	Sessions         Sessions              `json:"sessions"`
	Forge            Forge                 `json:"forge"`
	Executor         Executor              `json:"executor"`
	// DefaultTool is the tool roles use when not configured
	// (Catalog.Default); it is not stored.
	DefaultTool string `json:"-"`

	// catalog names the tools Validate accepts.
	catalog Catalog
}

// Defaults returns the settings used when the file sets nothing, with the
// tools of cat.
func Defaults(cat Catalog) Settings {
	def := ToolRef{Tool: cat.Default()}
	return Settings{
		Runner:   Runner{Enabled: true, Concurrency: DefaultConcurrency, RunMissedSchedules: true},
		Roles:    Roles{Planner: def, Refinement: def, Developer: def, Reviewer: def},
		Review:   Review{Gate: true, MaxFixRounds: DefaultMaxFixRounds, MaxInlineDiffBytes: DefaultMaxInlineDiffBytes},
		Worktree: Worktree{OnDone: DefaultOnDone, OnFailure: DefaultOnFailure},
		Retries: Retries{
			Transient:     DefaultTransientRetries,
			BackoffMs:     append([]int64(nil), DefaultBackoffMs...),
			IdleTimeoutMs: DefaultIdleTimeoutMs,
		},
		Stop:        Stop{GraceMs: DefaultGraceMs},
		UI:          UI{Notifications: true, CloseToTray: true, DiffView: DiffUnified},
		Verify:      defaultVerify(),
		Breakers:    DefaultBreakers(),
		Limits:      Limits{OnLimit: DefaultOnLimit, SwitchOrder: append([]string{}, cat.SwitchOrder...)},
		Sessions:    DefaultSessions(),
		Forge:       defaultForge(),
		DefaultTool: def.Tool,
		catalog:     cat,
	}
}

// Role returns the assignment of a role (the keys under "roles" are the
// role names), ok false for an unset observer or a role with no key.
func (s Settings) Role(r task.Role) (ToolRef, bool) {
	switch r {
	case task.RolePlanner:
		return s.Roles.Planner, true
	case task.RoleRefinement:
		return s.Roles.Refinement, true
	case task.RoleDeveloper:
		return s.Roles.Developer, true
	case task.RoleReviewer:
		return s.Roles.Reviewer, true
	case task.RoleObserver:
		if s.Roles.Observer != nil {
			return *s.Roles.Observer, true
		}
	}
	return ToolRef{}, false
}

// Writes reports whether a role may change the worktree: the developer
// always, another role only with roles.<role>.write: true. The planner
// answering a question is the planner.
func (s Settings) Writes(r task.Role) bool {
	if r == task.RoleDeveloper {
		return true
	}
	if r == task.RolePlannerAnswer {
		r = task.RolePlanner
	}
	ref, ok := s.Role(r)
	return ok && ref.Write != nil && *ref.Write
}

// Backoff returns the delay in ms before retry number n (1-based); the
// last entry repeats.
func (r Retries) Backoff(n int) int64 {
	if len(r.BackoffMs) == 0 {
		return 0
	}
	if n < 1 {
		n = 1
	}
	if n > len(r.BackoffMs) {
		n = len(r.BackoffMs)
	}
	return r.BackoffMs[n-1]
}
