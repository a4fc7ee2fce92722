package fakemodel

import (
	"net/http"
	"strconv"
	"time"
)

// ChatQuotaExhausted is an OpenAI-compatible provider's answer once the
// account's quota is used up until reset: a 429 insufficient_quota error
// whose message names the reset ("… Your quota will reset at
// 2026-12-05T18:30:00Z."), retry-after saying the seconds until then. It
// ends the CLIs' own retries quickly, so a test never waits them out:
// retry-after-ms "1" (which the OpenAI SDK in Qwen Code and opencode's
// retry both take before retry-after) makes their retries go at once, and
// Qwen Code then fails a quota message naming a reset ("Quota exhausted:
// …"), opencode gives up after its five retries with an error event.
func ChatQuotaExhausted(reset time.Time) Reply {
	secs := max(int64(time.Until(reset).Seconds()), 1)
	return Reply{Status: http.StatusTooManyRequests, ErrorType: "insufficient_quota",
		ErrorMessage: "You have exceeded your usage quota. Your quota will reset at " + reset.UTC().Format(time.RFC3339) + ".",
		Header:       map[string]string{"retry-after": strconv.FormatInt(secs, 10), "retry-after-ms": "1"}}
}

// ChatRateLimited is a plain 429 rate limit naming no reset: the CLIs
// retry it themselves (Qwen Code silently for about a minute, then with
// system/retry events for many minutes).
func ChatRateLimited() Reply {
	return Reply{Status: http.StatusTooManyRequests, ErrorType: "rate_limit_exceeded",
		ErrorMessage: "Rate limit reached for requests"}
}
