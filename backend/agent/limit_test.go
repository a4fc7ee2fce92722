package agent

import (
	"testing"
	"time"
)

func TestDetectLimitText(t *testing.T) {
	loc := time.UTC
	now := time.Date(2026, 12, 1, 11, 0, 0, 0, loc)
	cases := []struct {
		name, text string
		ok         bool
		want       time.Time
	}{
		{"claude clock pm", "5-hour limit reached ∙ resets 2pm", true, time.Date(2026, 12, 1, 14, 0, 0, 0, loc)},
		{"claude clock with minutes", "Claude usage limit reached · resets 10:30am", true, time.Date(2026, 12, 2, 10, 30, 0, 0, loc)},
		{"codex try again", "You've hit your usage limit. Upgrade to Pro or try again in 2 hours 5 minutes.", true, now.Add(2*time.Hour + 5*time.Minute)},
		{"codex api code", `{"error":{"type":"usage_limit_reached","resets_in_seconds":90}} retry after 90`, true, now.Add(90 * time.Second)},
		{"limit without reset", "usage limit reached", true, time.Time{}},
		{"plain 429 is transient, not a limit", "API Error: 429 rate_limit_error", false, time.Time{}},
		{"overloaded", "API Error: 529 Overloaded", false, time.Time{}},
		{"empty", "", false, time.Time{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, ok := DetectLimitText(c.text, now, loc)
			if ok != c.ok || !l.ResetsAt.Equal(c.want) {
				t.Fatalf("DetectLimitText(%q) = %v %v, want %v %v", c.text, l.ResetsAt, ok, c.want, c.ok)
			}
			if ok && l.Message == "" {
				t.Fatal("limit without the tool's message")
			}
		})
	}
}

func TestEpochTime(t *testing.T) {
	if got := EpochTime(1764601200); !got.Equal(time.Unix(1764601200, 0)) {
		t.Fatalf("seconds: %v", got)
	}
	if got := EpochTime(1764601200123); !got.Equal(time.UnixMilli(1764601200123)) {
		t.Fatalf("millis: %v", got)
	}
	if !EpochTime(0).IsZero() || !EpochTime(-5).IsZero() {
		t.Fatal("non-positive epoch is a time")
	}
}
