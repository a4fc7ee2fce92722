package agent

import "testing"

func TestIsTransientToolError(t *testing.T) {
	cases := []struct {
		name                       string
		text                       string
		stopped, timedOut, stalled bool
		want                       bool
	}{
		{"claude 529", "API Error: 529 Overloaded. This is a server-side issue, usually temporary — try again in a moment.", false, false, false, true},
		{"claude 503", `API Error: 503 {"type":"error","error":{"type":"api_error","message":"Service Unavailable"}}`, false, false, false, true},
		{"claude 500", "API Error: 500 Internal server error", false, false, false, true},
		{"claude 429", "API Error: 429 rate_limit_error", false, false, false, true},
		{"bare 429", "Request failed with status 429", false, false, false, true},
		{"overloaded lower case", "upstream overloaded, retry later", false, false, false, true},
		{"temporarily unavailable", "Service Temporarily Unavailable", false, false, false, true},
		{"connection refused", "API Error: Unable to connect to API (ConnectionRefused)", false, false, false, true},
		{"econnreset", "read ECONNRESET", false, false, false, true},
		{"etimedout", "connect ETIMEDOUT 10.0.0.1:443", false, false, false, true},
		{"socket hang up", "Error: socket hang up", false, false, false, true},
		{"codex reconnecting", "Reconnecting... 2/5 (stream disconnected before completion)", false, false, false, true},
		{"codex unexpected status", "unexpected status 502 Bad Gateway: upstream", false, false, false, true},
		{"stall", "", false, false, true, true},
		{"stall wins over stop flags", "", true, false, true, true},
		{"not logged in", "Not logged in · Please run /login", false, false, false, false},
		{"invalid key", "Invalid API key · Fix external API key", false, false, false, false},
		{"claude 400", "API Error: 400 invalid_request_error", false, false, false, false},
		{"claude 401", "API Error: 401 authentication_error", false, false, false, false},
		{"max turns", "error_max_turns", false, false, false, false},
		{"empty", "", false, false, false, false},
		{"stopped 503", "API Error: 503", true, false, false, false},
		{"timed out 529", "API Error: 529 Overloaded", false, true, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := IsTransientToolError(c.text, c.stopped, c.timedOut, c.stalled); got != c.want {
				t.Fatalf("IsTransientToolError(%q, %v, %v, %v) = %v, want %v", c.text, c.stopped, c.timedOut, c.stalled, got, c.want)
			}
		})
	}
}
