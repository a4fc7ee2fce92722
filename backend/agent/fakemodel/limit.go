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
// retry-after. Codex prints "You've hit your usage limit. … try again at
// 5:40 PM." (the reset in the machine's local time) from resets_at, and
// "… try again later." without it.
func OpenAIUsageLimit(reset time.Time) Reply {
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
