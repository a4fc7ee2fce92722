package mock

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Verdict tokens of the [[mock-verdicts ...]] marker.
const (
	TokenApprove          = "APPROVE"
	TokenChangesRequested = "CHANGES_REQUESTED"
	TokenReject           = "REJECT"
	// TokenNone writes no verdict line.
	TokenNone = "NONE"
	// TokenGarbled writes "VERDICT: MAYBE".
	TokenGarbled = "GARBLED"
	// TokenConflict ends the report with two disagreeing verdict lines.
	TokenConflict = "CONFLICT"
)

// ErrBadMarker is wrapped by ParseScript for a malformed marker: an unknown
// marker kind, role or verdict token, or a count that is not a number.
var ErrBadMarker = errors.New("bad mock marker")

// Script is what the markers of a prompt ask the mock to do. Every map is
// keyed by role; a missing role means the default behaviour.
type Script struct {
	// Verdicts lists one token per round; the last one repeats.
	Verdicts map[task.Role][]string
	// Transient fails the first N runs of a role with "API Error: 503".
	Transient map[task.Role]int
	// Stall makes the first N runs of a role go silent.
	Stall map[task.Role]int
	// Questions makes the first N runs of a role ask questions.
	Questions map[task.Role]int
	// DelayMs pauses this many milliseconds between streamed lines, so
	// tests can stop or steer a run while it is live.
	DelayMs map[task.Role]int
	// AwaitInput makes a role wait, before it finishes, until it has
	// received this many mid-run messages (or its input is closed).
	AwaitInput map[task.Role]int
	// APIRetry makes every run of a role report this many retries of an
	// API error of its own (as the real CLIs do) before it works.
	APIRetry map[task.Role]int
	// Write makes the first N runs of a role write a note file through its
	// edit tool, which a read-only run refuses (the mock honours it).
	Write map[task.Role]int
	// Stray makes the first N runs of a role change the worktree through
	// its "shell", whatever its access (a misbehaving agent): a tracked
	// file edited, a file committed, an untracked file left.
	Stray map[task.Role]int
	// Lock makes the stray edit's untracked file undeletable (immutable),
	// so reverting it fails.
	Lock map[task.Role]int
	// Leak makes the first N runs of a role print the file mock-leak.txt of
	// the worktree (as an agent dumping a config would): as a tool result,
	// as text, in its report and in questions.
	Leak map[task.Role]int
	// Hostile lists behaviours of a process tree that resists being
	// stopped (Hostile* tokens); a role with any of them never finishes.
	Hostile map[task.Role][]string
	// FloodMiB is how much the "flood" behaviour writes (default 1024).
	FloodMiB map[task.Role]int
	// Litter makes the developer write this many small files into the
	// directory litter/ (which a test repository ignores), so removing the
	// worktree takes a while.
	Litter map[task.Role]int
	// Usage makes a role report this many input tokens before its work,
	// as ten usage events of a tenth each (cumulative, no cost: the price
	// table prices them), paced by the delay marker.
	Usage map[task.Role]int
	// FailCalls makes a role make this many identical tool calls (bash
	// "npm test") that each fail with the same error.
	FailCalls map[task.Role]int
	// Loops makes a role make this many identical tool calls (read
	// README.md) that each succeed with the same output: no progress.
	Loops map[task.Role]int
	// NoUsage (any count above 0) makes a role report no usage at all.
	NoUsage map[task.Role]int
	// Limit makes the first N runs of a role end on a usage limit that
	// resets LimitReset after the run (the developer writes a partial line
	// to its file first, as an agent cut off mid-work would).
	Limit map[task.Role]int
	// Turns makes the first N runs of a role make TurnsCalls tool calls and
	// end as out of turns (the tool's own signal).
	Turns map[task.Role]int
	// Context makes the first N runs of a role report a model call of
	// ContextTokens input tokens, then work on for ContextHold before
	// finishing normally (the pipeline's context estimate rotates it).
	Context map[task.Role]int
}

// Tokens of the [[mock-hostile ...]] marker: what the role's process tree
// does before it blocks until it is stopped.
const (
	// HostileSigterm: the agent ignores SIGTERM.
	HostileSigterm = "sigterm"
	// HostileSetsid: a child leaves the group and session (setsid).
	HostileSetsid = "setsid"
	// HostileDaemon: a double-forked daemon, re-parented away from the agent.
	HostileDaemon = "daemon"
	// HostileStorm: a storm of 150 children.
	HostileStorm = "storm"
	// HostileFlood: output as fast as it goes (FloodMiB, in 64 KiB lines).
	HostileFlood = "flood"
	// HostilePTYClose: the agent closes its terminal and goes on running.
	HostilePTYClose = "ptyclose"
	// HostileHide: a helper that hides: it clears the step and process
	// tags from its environment, leaves the session, is orphaned at once
	// (double fork) and moves to /.
	HostileHide = "hide"
)

var (
	// markerRe finds a complete marker on one line.
	markerRe = regexp.MustCompile(`\[\[mock-([a-z]+)((?:[ \t]+[^\s\]]+)*)[ \t]*\]\]`)
	// openRe finds anything that looks like the start of a marker.
	openRe = regexp.MustCompile(`\[\[mock-([a-z]*)`)
)

var knownRoles = map[task.Role]bool{
	task.RolePlanner: true, task.RoleRefinement: true, task.RoleDeveloper: true,
	task.RoleObserver: true, task.RoleReviewer: true, task.RolePlannerAnswer: true,
}

var knownTokens = map[string]bool{
	TokenApprove: true, TokenChangesRequested: true, TokenReject: true,
	TokenNone: true, TokenGarbled: true, TokenConflict: true,
}

var knownKinds = map[string]bool{"verdicts": true, "transient": true, "stall": true, "questions": true, "delay": true, "await": true,
	"apiretry": true, "hostile": true, "flood": true, "litter": true, "write": true, "stray": true, "lock": true, "leak": true,
	"usage": true, "failcall": true, "loop": true, "nousage": true, "limit": true, "turns": true, "context": true}

var knownHostile = map[string]bool{HostileSigterm: true, HostileSetsid: true, HostileDaemon: true, HostileStorm: true,
	HostileFlood: true, HostilePTYClose: true, HostileHide: true}

// ParseScript reads the markers of a prompt, one per line. For each kind
// the last complete marker in the prompt wins. It returns an error wrapping
// ErrBadMarker for an unknown kind, role or verdict token or a bad count.
func ParseScript(prompt string) (Script, error) {
	last := map[string]string{}
	for _, m := range openRe.FindAllStringSubmatch(prompt, -1) {
		if !knownKinds[m[1]] {
			return Script{}, fmt.Errorf("%w: unknown marker [[mock-%s", ErrBadMarker, m[1])
		}
	}
	for _, l := range strings.Split(prompt, "\n") {
		for _, m := range markerRe.FindAllStringSubmatch(l, -1) {
			last[m[1]] = m[2]
		}
	}
	s := Script{Verdicts: map[task.Role][]string{}, Transient: map[task.Role]int{}, Stall: map[task.Role]int{},
		Questions: map[task.Role]int{}, DelayMs: map[task.Role]int{}, AwaitInput: map[task.Role]int{}, APIRetry: map[task.Role]int{},
		Hostile: map[task.Role][]string{}, FloodMiB: map[task.Role]int{}, Litter: map[task.Role]int{},
		Write: map[task.Role]int{}, Stray: map[task.Role]int{}, Lock: map[task.Role]int{}, Leak: map[task.Role]int{},
		Usage: map[task.Role]int{}, FailCalls: map[task.Role]int{}, Loops: map[task.Role]int{}, NoUsage: map[task.Role]int{}, Limit: map[task.Role]int{},
		Turns: map[task.Role]int{}, Context: map[task.Role]int{}}
	for kind, body := range last {
		for _, f := range strings.Fields(body) {
			k, v, ok := strings.Cut(f, "=")
			role := task.Role(k)
			if !ok || !knownRoles[role] || v == "" {
				return Script{}, fmt.Errorf("%w: [[mock-%s]]: %q is not role=value", ErrBadMarker, kind, f)
			}
			if kind == "verdicts" {
				toks := strings.Split(v, ",")
				for _, t := range toks {
					if !knownTokens[t] {
						return Script{}, fmt.Errorf("%w: [[mock-verdicts]]: unknown token %q", ErrBadMarker, t)
					}
				}
				s.Verdicts[role] = toks
				continue
			}
			if kind == "hostile" {
				toks := strings.Split(v, ",")
				for _, t := range toks {
					if !knownHostile[t] {
						return Script{}, fmt.Errorf("%w: [[mock-hostile]]: unknown behaviour %q", ErrBadMarker, t)
					}
				}
				s.Hostile[role] = toks
				continue
			}
			limit := 1_000_000
			if kind == "usage" {
				limit = 1_000_000_000_000
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > limit {
				return Script{}, fmt.Errorf("%w: [[mock-%s]]: %q is not a count", ErrBadMarker, kind, f)
			}
			map[string]map[task.Role]int{"transient": s.Transient, "stall": s.Stall,
				"questions": s.Questions, "delay": s.DelayMs, "await": s.AwaitInput, "apiretry": s.APIRetry,
				"flood": s.FloodMiB, "litter": s.Litter, "write": s.Write, "stray": s.Stray, "lock": s.Lock, "leak": s.Leak,
				"usage": s.Usage, "failcall": s.FailCalls, "loop": s.Loops, "nousage": s.NoUsage, "limit": s.Limit,
				"turns": s.Turns, "context": s.Context}[kind][role] = n
		}
	}
	return s, nil
}

// Verdict returns the token of a role's round (1-based): the round's token,
// the last token for later rounds, APPROVE without a marker.
func (s Script) Verdict(role task.Role, round int) string {
	toks := s.Verdicts[role]
	if len(toks) == 0 {
		return TokenApprove
	}
	return toks[min(max(round, 1), len(toks))-1]
}

// verdictTail renders the end of a verdict report for a token.
func verdictTail(tok string) string {
	switch tok {
	case TokenNone:
		return "No verdict this time."
	case TokenGarbled:
		return "VERDICT: MAYBE"
	case TokenConflict:
		return "VERDICT: APPROVE\nVERDICT: REJECT"
	case TokenChangesRequested:
		return "- The mock file needs one more line.\n\nVERDICT: CHANGES_REQUESTED"
	case TokenReject:
		return "The approach is wrong.\n\nVERDICT: REJECT"
	default:
		return "Looks good.\n\nVERDICT: APPROVE"
	}
}
