package settings

import (
	"fmt"
	"maps"
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

// Validate checks every known key and returns a *ValidationError (wrapping
// ErrInvalid) naming each bad one, or nil. Role tools are checked against the
// Catalog the settings came with (Defaults, File.Load), so build settings
// from those, not from a bare literal.
func (s Settings) Validate() error { return invalid(s.problems()) }

// problems returns a *KeyError for every bad value, in schema order. Each
// reason completes "<key> …" in the user's terms and quotes the value.
func (s Settings) problems() []*KeyError {
	var out []*KeyError
	bad := func(key, format string, args ...any) {
		out = append(out, &KeyError{Key: key, Reason: fmt.Sprintf(format, args...)})
	}
	between := func(key string, n, lo, hi int64) {
		if n < lo || n > hi {
			bad(key, "must be between %d and %d (got %d)", lo, hi, n)
		}
	}
	if w := s.WorkingDirectory; w != "" && task.LineProblem(w) != "" {
		bad("workingDirectory", "%s", task.LineProblem(w))
	} else if w != "" && !filepath.IsAbs(w) && !strings.HasPrefix(w, "~/") {
		bad("workingDirectory", "must be an absolute path or start with ~/ (got %q)", w)
	}
	between("runner.concurrency", int64(s.Runner.Concurrency), 1, MaxConcurrency)
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
			bad("roles."+string(r.name)+".tool", "must be one of %s (got %q)", strings.Join(s.catalog.Names, ", "), r.ref.Tool)
		}
		if p := task.LineProblem(r.ref.Model); p != "" {
			bad("roles."+string(r.name)+".model", "%s", p)
		}
		if r.name == task.RoleDeveloper && r.ref.Write != nil && !*r.ref.Write {
			bad("roles.developer.write", "must be true or left out: the developer is the role that edits")
		}
	}
	between("review.maxFixRounds", int64(s.Review.MaxFixRounds), 0, MaxFixRoundsLimit)
	between("review.maxInlineDiffBytes", int64(s.Review.MaxInlineDiffBytes), 1, maxInlineDiffBytesCap)
	if v := s.Worktree.OnDone; v != "keep-branch" && v != "keep" && v != "delete" {
		bad("worktree.onDone", "must be keep-branch, keep or delete (got %q)", v)
	}
	if v := s.Worktree.OnFailure; v != "keep" && v != "delete" {
		bad("worktree.onFailure", "must be keep or delete (got %q)", v)
	}
	if strings.ContainsRune(s.Worktree.Root, 0) {
		bad("worktree.root", "must not contain NUL")
	}
	between("retries.transient", int64(s.Retries.Transient), 0, MaxTransientLimit)
	if len(s.Retries.BackoffMs) == 0 {
		bad("retries.backoffMs", "must list at least one delay")
	}
	for i, d := range s.Retries.BackoffMs {
		if d < 0 || d > maxDelayMs {
			bad("retries.backoffMs", "must hold delays between 0 and %d (got %d at position %d)", maxDelayMs, d, i+1)
			break
		}
	}
	between("retries.idleTimeoutMs", s.Retries.IdleTimeoutMs, minIdleTimeoutMs, maxDelayMs)
	between("stop.graceMs", s.Stop.GraceMs, 0, maxGraceMs)
	if v := s.UI.DiffView; v != DiffUnified && v != DiffSplit {
		bad("ui.diffView", "must be %s or %s (got %q)", DiffUnified, DiffSplit, v)
	}
	s.Verify.problems(bad)
	for _, name := range slices.Sorted(maps.Keys(s.Tools)) {
		if !slices.Contains(s.catalog.Configurable, name) {
			continue // unknown tools are kept as they are
		}
		tc := s.Tools[name]
		if p := task.LineProblem(tc.Path); p != "" {
			bad("tools."+name+".path", "%s", p)
		} else if strings.ContainsRune(tc.Path, filepath.Separator) && !filepath.IsAbs(tc.Path) {
			bad("tools."+name+".path", "must be an absolute path, or a command name found on PATH (got %q)", tc.Path)
		}
		for _, k := range slices.Sorted(maps.Keys(tc.Env)) {
			if !envName.MatchString(k) {
				bad("tools."+name+".env", "must name valid environment variables (got %q)", k)
			} else if strings.ContainsRune(tc.Env[k], 0) {
				bad("tools."+name+".env."+k, "must not contain NUL")
			}
		}
	}
	s.budgetProblems(bad)
	s.limitProblems(bad)
	s.Forge.problems(bad)
	s.executorProblems(bad)
	return out
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
