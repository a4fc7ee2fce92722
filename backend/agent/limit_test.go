package agent

import (
	"strings"
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

// Codex names the reset as a clock time: "try again at 5:40 PM" (measured
// against the fake model server); "try again later" names none.
func TestDetectLimitTextCodexTryAgainAt(t *testing.T) {
	now := time.Date(2026, 12, 1, 14, 40, 0, 0, time.UTC)
	msg := "You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at 5:40 PM."
	l, ok := DetectLimitText(msg, now, time.UTC)
	if !ok || !l.ResetsAt.Equal(time.Date(2026, 12, 1, 17, 40, 0, 0, time.UTC)) {
		t.Fatalf("limit %+v %v", l, ok)
	}
	// A reset on another day comes with its date (seen with the real codex
	// at 22:48 for a reset two hours later).
	for text, want := range map[string]time.Time{
		"try again at Dec 2nd, 2026 12:48 AM.": time.Date(2026, 12, 2, 0, 48, 0, 0, time.UTC),
		"try again at Jan 3rd, 2027 9:05 PM.":  time.Date(2027, 1, 3, 21, 5, 0, 0, time.UTC),
		"try again at Dec 11th, 2026 1:00 PM":  time.Date(2026, 12, 11, 13, 0, 0, 0, time.UTC),
		"try again at Dec 2 12:48 AM":          time.Date(2026, 12, 2, 0, 48, 0, 0, time.UTC),
		"resets Dec 5 at 2pm":                  time.Date(2026, 12, 5, 14, 0, 0, 0, time.UTC),
		"resets Feb 30, 2027 2pm":              {},
	} {
		l, ok := DetectLimitText("You’ve hit your usage limit. Upgrade to Pro or "+text, now, time.UTC)
		if !ok || !l.ResetsAt.Equal(want) {
			t.Errorf("%q: reset %v %v, want %v", text, l.ResetsAt, ok, want)
		}
	}
	l, ok = DetectLimitText(strings.Replace(msg, "at 5:40 PM", "later", 1), now, time.UTC)
	if !ok || !l.ResetsAt.IsZero() {
		t.Fatalf("later: %+v %v", l, ok)
	}
}

func TestDetectExhausted(t *testing.T) {
	for text, want := range map[string]string{
		"Prompt is too long":                                  ExhaustedContext,
		"stream error: context_length_exceeded":               ExhaustedContext,
		"Codex ran out of room in the model's context window": ExhaustedContext,
		"Reached max turns (30)":                              ExhaustedTurns,
		"API Error: 503 overloaded":                           "",
	} {
		if got := DetectExhausted(text); got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}

// The one reset parser, for every adapter: structured fields first, a
// clock time that has just begun or passed is a short wait (Codex prints
// the reset rounded down to the minute), never tomorrow's.
func TestResetFromText(t *testing.T) {
	loc := time.UTC
	now := time.Date(2026, 12, 5, 11, 42, 20, 0, loc)
	day := func(h, m int) time.Time { return time.Date(2026, 12, 5, h, m, 0, 0, loc) }
	cases := []struct {
		name, text string
		want       time.Time
	}{
		{"clock in the current minute", "try again at 11:42 AM.", now.Add(recentResetWait)},
		{"clock in the past minute", "try again at 11:41 AM.", now.Add(recentResetWait)},
		{"clock a few minutes ago", "resets 11:35am", now.Add(recentResetWait)},
		{"clock in the past hour", "try again at 11:05 AM.", day(11, 5).AddDate(0, 0, 1)},
		{"clock hours ago is tomorrow", "resets 9am", day(9, 0).AddDate(0, 0, 1)},
		{"clock later today", "try again at 11:43 AM.", day(11, 43)},
		{"clock tonight", "resets 11pm", day(23, 0)},
		{"dated tomorrow", "try again at Dec 6th, 2026 12:48 AM.", time.Date(2026, 12, 6, 0, 48, 0, 0, loc)},
		{"structured resets_at seconds", `{"type":"usage_limit_reached","resets_at":1796477000} try again at 11:42 AM`, time.Unix(1796477000, 0)},
		{"structured resets_at millis", `"resetsAt": 1796477000123`, time.UnixMilli(1796477000123)},
		{"structured resets_at RFC 3339", `"resets_at": "2026-12-05T11:42:30Z"`, time.Date(2026, 12, 5, 11, 42, 30, 0, loc)},
		{"structured resets_in_seconds", `{"resets_in_seconds": 40} try again at 11:42 AM`, now.Add(40 * time.Second)},
		{"absolute before relative", `"resets_in_seconds": 40, "resets_at": 1796477000`, time.Unix(1796477000, 0)},
		{"relative field beyond a year is not a reset", `"resets_in_seconds": 99999999999`, time.Time{}},
		{"duration", "try again in 3 hours 20 minutes", now.Add(3*time.Hour + 20*time.Minute)},
		{"none", "usage limit reached", time.Time{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ResetFromText(c.text, now, loc); !got.Equal(c.want) {
				t.Fatalf("ResetFromText(%q) = %v, want %v", c.text, got, c.want)
			}
		})
	}
}

// A clock time is read in loc: 11:42 AM printed in UTC-5 is 16:42 UTC.
func TestResetFromTextClockInLocation(t *testing.T) {
	loc := time.FixedZone("EST", -5*3600)
	now := time.Date(2026, 12, 5, 16, 42, 50, 0, time.UTC)
	if got := ResetFromText("try again at 11:42 AM.", now, loc); !got.Equal(now.Add(recentResetWait)) {
		t.Fatalf("got %v", got)
	}
	if got := ResetFromText("try again at 11:50 AM.", now, loc); !got.Equal(time.Date(2026, 12, 5, 16, 50, 0, 0, time.UTC)) {
		t.Fatalf("got %v", got)
	}
}
