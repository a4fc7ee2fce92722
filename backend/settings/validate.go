package settings

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Limits enforced by Validate.
const (
	MaxConcurrency        = 32
	MaxFixRoundsLimit     = 50
	MaxTransientLimit     = 20
	maxDelayMs            = 24 * 3600 * 1000
	minIdleTimeoutMs      = 100
	maxGraceMs            = 10 * 60 * 1000
	maxInlineDiffBytesCap = 64 << 20
)

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Validate checks every known key and returns a *KeyError (wrapping
// ErrInvalid) naming the first bad one. Role tools are checked against the
// Catalog the settings came with (Defaults, File.Load), so build settings
// from those, not from a bare literal.
func (s Settings) Validate() error {
	bad := func(key, format string, args ...any) error {
		return &KeyError{Key: key, Reason: fmt.Sprintf(format, args...)}
	}
	if w := s.WorkingDirectory; w != "" && !filepath.IsAbs(w) && !strings.HasPrefix(w, "~/") {
		return bad("workingDirectory", "%q must be an absolute path or start with ~/", w)
	}
	if c := s.Runner.Concurrency; c < 1 || c > MaxConcurrency {
		return bad("runner.concurrency", "%d must be between 1 and %d", c, MaxConcurrency)
	}
	roles := []struct {
		name task.Role
		ref  *ToolRef
	}{
		{task.RolePlanner, &s.Roles.Planner}, {task.RoleRefinement, &s.Roles.Refinement},
		{task.RoleDeveloper, &s.Roles.Developer}, {task.RoleObserver, s.Roles.Observer}, {task.RoleReviewer, &s.Roles.Reviewer},
	}
	for _, r := range roles {
		if r.ref == nil {
			continue
		}
		if !slices.Contains(s.catalog.Names, r.ref.Tool) {
			return bad("roles."+string(r.name)+".tool", "%q is not one of %s", r.ref.Tool, strings.Join(s.catalog.Names, ", "))
		}
		if strings.ContainsAny(r.ref.Model, "\n\r\x00") {
			return bad("roles."+string(r.name)+".model", "contains a line break or NUL")
		}
	}
	if n := s.Review.MaxFixRounds; n < 0 || n > MaxFixRoundsLimit {
		return bad("review.maxFixRounds", "%d must be between 0 and %d", n, MaxFixRoundsLimit)
	}
	if n := s.Review.MaxInlineDiffBytes; n < 1 || n > maxInlineDiffBytesCap {
		return bad("review.maxInlineDiffBytes", "%d must be between 1 and %d", n, maxInlineDiffBytesCap)
	}
	if v := s.Worktree.OnDone; v != "keep-branch" && v != "keep" && v != "delete" {
		return bad("worktree.onDone", "%q must be keep-branch, keep or delete", v)
	}
	if v := s.Worktree.OnFailure; v != "keep" && v != "delete" {
		return bad("worktree.onFailure", "%q must be keep or delete", v)
	}
	if strings.ContainsRune(s.Worktree.Root, 0) {
		return bad("worktree.root", "contains NUL")
	}
	if n := s.Retries.Transient; n < 0 || n > MaxTransientLimit {
		return bad("retries.transient", "%d must be between 0 and %d", n, MaxTransientLimit)
	}
	if len(s.Retries.BackoffMs) == 0 {
		return bad("retries.backoffMs", "must list at least one delay")
	}
	for i, d := range s.Retries.BackoffMs {
		if d < 0 || d > maxDelayMs {
			return bad(fmt.Sprintf("retries.backoffMs[%d]", i), "%d must be between 0 and %d", d, maxDelayMs)
		}
	}
	if n := s.Retries.IdleTimeoutMs; n < minIdleTimeoutMs || n > maxDelayMs {
		return bad("retries.idleTimeoutMs", "%d must be between %d and %d", n, minIdleTimeoutMs, maxDelayMs)
	}
	if n := s.Stop.GraceMs; n < 0 || n > maxGraceMs {
		return bad("stop.graceMs", "%d must be between 0 and %d", n, maxGraceMs)
	}
	for name, tc := range s.Tools {
		if !slices.Contains(s.catalog.Configurable, name) {
			continue // unknown tools are kept as they are
		}
		if strings.ContainsAny(tc.Path, "\n\r\x00") {
			return bad("tools."+name+".path", "contains a line break or NUL")
		}
		for k, v := range tc.Env {
			if !envName.MatchString(k) {
				return bad("tools."+name+".env", "%q is not a valid environment variable name", k)
			}
			if strings.ContainsRune(v, 0) {
				return bad("tools."+name+".env."+k, "contains NUL")
			}
		}
	}
	return nil
}

// EnvList returns tools.<name>.env as sorted KEY=VALUE pairs.
func (s Settings) EnvList(tool string) []string {
	env := s.Tools[tool].Env
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+"="+env[k])
	}
	return out
}
