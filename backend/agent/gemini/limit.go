package gemini

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/agent"
)

// What Gemini CLI 0.61 prints when the API refuses with 429
// RESOURCE_EXHAUSTED (measured against the fake model server):
//
//   - a quota whose retry delay is over 5 minutes, or a per-day quota: it
//     gives up at once with a result line {"status":"error","error":
//     {"message":"[API Error: <the API's message>\nSuggested retry after
//     3599s.]\nPlease wait and try again later. …"}} ("You have exhausted
//     your daily quota on this model." for a per-day quota), and exits 173
//     (its exit code is the error's status, 429, mod 256);
//   - any other 429 it retries itself, 10 attempts over about 4 minutes,
//     then ends the same way.
//
// Both are a usage limit. The reset is the suggested retry delay when
// there is one; a daily quota resets at midnight Pacific time (the
// Gemini API's quota day); otherwise the reset is not known.

// exitQuota is gemini's exit status for a 429 (429 mod 256).
const exitQuota = 173

var (
	// quotaRe matches gemini's quota errors.
	quotaRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(exhausted your daily quota|resource has been exhausted|resource_exhausted|exceeded your current quota|quota exceeded|QuotaError|\b429\b)`)
	})
	// capacityRe matches a model out of capacity: the server's trouble, not
	// the user's quota, so worth a retry rather than a pause.
	capacityRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(exhausted your capacity|capacity exceeded|MODEL_CAPACITY_EXHAUSTED|no capacity available)`)
	})
	// retryDelayRe finds gemini's "Suggested retry after 3599s." and the
	// API's "Please retry in 35.5s." (also in ms).
	retryDelayRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:suggested retry after|please retry in)\s+([0-9]+(?:\.[0-9]+)?)(ms|s)\b`)
	})
	// dailyRe matches a per-day quota.
	dailyRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)daily quota|per ?day`) })
	// transientRe matches gemini's errors worth a retry in the same
	// worktree beyond the shared patterns: a model out of capacity, the
	// API unavailable or failing, the network.
	transientRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(exhausted your capacity|capacity exceeded|MODEL_CAPACITY_EXHAUSTED|no capacity available|\bUNAVAILABLE\b|\bINTERNAL\b|status: 5\d\d|fetch failed|ECONNREFUSED|EAI_AGAIN|ENOTFOUND|network error)`)
	})
	// turnsRe and contextRe match a session out of room.
	turnsRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)max(imum)? session turns|FatalTurnLimitedError`) })
	contextRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(input token count.*exceeds the maximum|exceeds the maximum number of tokens|context window)`)
	})
)

// pacific is the time zone of the Gemini API's quota day; nil when the
// machine has no zone data (a daily quota's reset is then not known).
var pacific = sync.OnceValue(func() *time.Location {
	loc, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		return nil
	}
	return loc
})

// detectLimit reads a failed step's error (text, the error type gemini
// names, its exit code) for a usage limit and its reset time relative to
// now. A model out of capacity is no limit.
func detectLimit(text, errType string, exit int, now time.Time) (agent.Limit, bool) {
	all := errType + " " + text
	if capacityRe().MatchString(all) {
		return agent.Limit{}, false
	}
	if exit != exitQuota && !quotaRe().MatchString(all) {
		return agent.Limit{}, false
	}
	l := agent.Limit{Kind: "quota", Message: strings.TrimSpace(text)}
	if len(l.Message) > 500 {
		l.Message = l.Message[:500]
	}
	if m := retryDelayRe().FindStringSubmatch(text); m != nil {
		if v, err := strconv.ParseFloat(m[1], 64); err == nil && v > 0 {
			d := time.Duration(v * float64(time.Second))
			if m[2] == "ms" {
				d = time.Duration(v * float64(time.Millisecond))
			}
			l.ResetsAt = now.Add(d).Truncate(time.Second)
			return l, true
		}
	}
	if dailyRe().MatchString(text) {
		l.Kind = "daily_quota"
		if loc := pacific(); loc != nil {
			l.ResetsAt = NextQuotaDay(now, loc)
		}
	}
	return l, true
}

// NextQuotaDay returns the next midnight in loc after now: when a daily
// quota of the Gemini API resets (loc is America/Los_Angeles).
func NextQuotaDay(now time.Time, loc *time.Location) time.Time {
	n := now.In(loc)
	return time.Date(n.Year(), n.Month(), n.Day()+1, 0, 0, 0, 0, loc)
}
