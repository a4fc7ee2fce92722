package agent

import (
	"regexp"
	"strings"
	"sync"
)

// transientPatterns match tool error text worth retrying in the same worktree.
var transientPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)API Error:?\s*5\d\d\b`),
		regexp.MustCompile(`(?i)API Error:?\s*429\b`),
		regexp.MustCompile(`\b(429|529)\b`),
		regexp.MustCompile(`(?i)overloaded`),
		regexp.MustCompile(`(?i)temporarily unavailable`),
		regexp.MustCompile(`ECONNRESET`),
		regexp.MustCompile(`ETIMEDOUT`),
		regexp.MustCompile(`(?i)socket hang up`),
		regexp.MustCompile(`ConnectionRefused`),
		regexp.MustCompile(`(?i)Reconnecting\.\.\.`),
		regexp.MustCompile(`(?i)unexpected status 5\d\d\b`),
		regexp.MustCompile(`(?i)rate[ _-]?limit`),
	}
})

// IsTransientToolError reports whether a failed step is worth retrying in the
// same worktree: a stall (no output for the idle timeout) always is; a step we
// stopped or that ran past its deadline never is; otherwise the tool's error
// text must match a known transient API or network failure (API Error: 5xx,
// 429, 529, overloaded, temporarily unavailable, ECONNRESET, ETIMEDOUT, socket
// hang up, ConnectionRefused, codex "Reconnecting..." or "unexpected status 5xx").
func IsTransientToolError(text string, stopped, timedOut, stalled bool) bool {
	if stalled {
		return true
	}
	if stopped || timedOut || strings.TrimSpace(text) == "" {
		return false
	}
	for _, p := range transientPatterns() {
		if p.MatchString(text) {
			return true
		}
	}
	return false
}
