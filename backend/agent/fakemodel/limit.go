package fakemodel

import (
	"net/http"
	"strconv"
	"time"
)

// AnthropicUsageLimit is the Messages API's answer once the account's
// usage limit is reached until reset: a 429 rate_limit_error with
// retry-after and the unified rate-limit headers saying "rejected" with
// the reset time. Claude Code 2.1 run with an API key does not retry a 429
// whose retry-after is long and prints "API Error: Request rejected (429)
// · <message>" with api_error_status 429 (it names no reset time: that
// rides only in the headers).
func AnthropicUsageLimit(reset time.Time) Reply {
	secs := max(int64(time.Until(reset).Seconds()), 1)
	return Reply{Status: http.StatusTooManyRequests, ErrorType: "rate_limit_error",
		ErrorMessage: "This request would exceed your account's rate limit. Please try again later.",
		Header: map[string]string{
			"retry-after":                                      strconv.FormatInt(secs, 10),
			"anthropic-ratelimit-unified-status":               "rejected",
			"anthropic-ratelimit-unified-reset":                strconv.FormatInt(reset.Unix(), 10),
			"anthropic-ratelimit-unified-representative-claim": "five_hour",
			"anthropic-ratelimit-unified-5h-status":            "rejected",
			"anthropic-ratelimit-unified-5h-reset":             strconv.FormatInt(reset.Unix(), 10),
		}}
}

// OpenAIUsageLimit is the Responses API's answer once a ChatGPT plan's
// usage limit is reached until reset: a 429 usage_limit_reached error
// carrying resets_at (Unix seconds) and resets_in_seconds, with
// retry-after and the x-codex-primary-* rate-limit window headers showing
// the 5-hour window used up until reset. Codex prints "You've hit your
// usage limit. … try again at 5:40 PM." (the reset rounded down to the
// minute, in the machine's local time) from resets_at, "… try again
// later." without it; it records the window, reset to the second, in the
// token_count event of its session file.
func OpenAIUsageLimit(reset time.Time) Reply {
	r := OpenAIUsageLimitBody(reset)
	r.Header["x-codex-primary-used-percent"] = "100"
	r.Header["x-codex-primary-window-minutes"] = "300"
	r.Header["x-codex-primary-reset-at"] = strconv.FormatInt(reset.Unix(), 10)
	r.Header["x-codex-primary-reset-after-seconds"] = r.Header["retry-after"]
	return r
}

// OpenAIUsageLimitBody is OpenAIUsageLimit without the rate-limit window
// headers: the reset is only in the error object (what codex prints).
func OpenAIUsageLimitBody(reset time.Time) Reply {
	secs := max(int64(time.Until(reset).Seconds()), 1)
	return Reply{Status: http.StatusTooManyRequests, ErrorType: "usage_limit_reached",
		ErrorMessage: "The usage limit has been reached",
		ErrorFields:  map[string]any{"plan_type": "plus", "resets_at": reset.Unix(), "resets_in_seconds": secs},
		Header:       map[string]string{"retry-after": strconv.FormatInt(secs, 10)}}
}

// setHeaders sets a reply's response headers.
func setHeaders(w http.ResponseWriter, h map[string]string) {
	for k, v := range h {
		w.Header().Set(k, v)
	}
}
