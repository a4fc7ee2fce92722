package agent

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Limit is a usage limit a tool reported: the provider refuses more work
// until ResetsAt. It is not a transient error: retrying before the reset
// only hits the same wall, so the pipeline pauses the tool instead.
type Limit struct {
	// ResetsAt is when the tool may run again; zero when the tool did not say.
	ResetsAt time.Time `json:"resets_at"`
	// Kind is the limit the tool named ("five_hour", "seven_day"), "" when none.
	Kind string `json:"kind,omitempty"`
	// Message is the tool's own words about the limit.
	Message string `json:"message,omitempty"`
}

var (
	// limitTextRe matches the usage-limit messages of the CLIs: Claude
	// Code's "5-hour limit reached · resets 2pm", "usage limit reached",
	// Codex's "You've hit your usage limit" and the API's usage_limit_reached.
	limitTextRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(limit reached|hit your usage limit|usage[ _]limit[ _](reached|exceeded)|out of (extra )?usage)`)
	})
	// resetsClockRe finds "resets 2pm", "resets 2:30pm", "resets 14:05",
	// Codex's "try again at 5:40 PM" and, for a reset on another day, its
	// "try again at Dec 2nd, 2026 12:48 AM" (also "Dec 2 12:48 AM", "Dec
	// 2 at 2pm"): month (1), day (2), year (3), hour (4), minutes (5), am/pm (6).
	resetsClockRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:resets|try again) (?:at )?` +
			`(?:(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? (\d{1,2})(?:st|nd|rd|th)?,?(?: (\d{4}),?)?(?: at)? )?` +
			`(\d{1,2})(?::(\d{2}))?\s*(am|pm)?`)
	})
	// exhaustedContextRe matches a tool's "out of context" error.
	exhaustedContextRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(prompt is too long|context[ _]window|context[ _]length[ _]exceeded|ran out of room)`)
	})
	// exhaustedTurnsRe matches a tool's "out of turns" error.
	exhaustedTurnsRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(max(imum)?[ _]turns|turn limit)`) })
	// resetsInRe finds "try again in 3 hours 20 minutes", "resets in 45m", "retry after 120 seconds".
	resetsInRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:try again in|resets in|retry after|retry-after:?)\s+((?:\d+\s*(?:days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b[\s,and]*)+|\d+\b)`)
	})
	// resetsAtRe finds an API's absolute reset field quoted in a message:
	// "resets_at": 1764601200 (seconds or milliseconds) or an RFC 3339
	// string; also resetsAt and reset_at.
	resetsAtRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)"?\b(?:resets?_at|resetsAt)"?\s*[:=]\s*(?:(\d{9,14}(?:\.\d+)?)\b|"(\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:\d\d))")`)
	})
	// resetsInSecondsRe finds an API's relative reset field quoted in a
	// message: "resets_in_seconds": 90 (also resetsInSeconds).
	resetsInSecondsRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)"?\b(?:resets?_in_seconds|resetsInSeconds)"?\s*[:=]\s*(\d+)\b`)
	})
	durPartRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(\d+)\s*(days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)?`)
	})
)

// DetectLimitText reads a tool's error or report text for a usage-limit
// message and the reset time it carries (relative to now, in loc for a
// clock time such as "resets 2pm"). ok is false when the text is no limit;
// a limit whose reset time is not in the text has a zero ResetsAt.
func DetectLimitText(text string, now time.Time, loc *time.Location) (Limit, bool) {
	if !limitTextRe().MatchString(text) {
		return Limit{}, false
	}
	l := Limit{Message: strings.TrimSpace(text)}
	if len(l.Message) > 500 {
		l.Message = l.Message[:500]
	}
	l.ResetsAt = ResetFromText(text, now, loc)
	return l, true
}

// A clock time names its minute only (Codex prints the reset rounded down
// to the minute), so one that has just begun or passed is the reset at hand,
// not tomorrow's: a clock time within recentReset before now means a reset
// recentResetWait from now. Further back, it is the next day's.
const (
	recentReset     = 10 * time.Minute
	recentResetWait = time.Minute
)

// ResetFromText finds a reset time in a limit message. It prefers the
// structured fields a tool passes on from the API ("resets_at": Unix
// seconds, milliseconds or RFC 3339; "resets_in_seconds"), then a duration
// ("try again in 2 hours", "retry after 120"), then a clock time ("resets
// 2pm", "try again at 5:40 PM" in loc: the next such time after now, or
// shortly after now for one that has just passed). It returns the zero time
// when there is none.
func ResetFromText(text string, now time.Time, loc *time.Location) time.Time {
	if loc == nil {
		loc = time.Local
	}
	for _, find := range []func(string, time.Time, *time.Location) time.Time{structuredReset, durationReset, clockReset} {
		if at := find(text, now, loc); !at.IsZero() {
			return at
		}
	}
	return time.Time{}
}

// structuredReset reads the API's own reset fields quoted in text: an
// absolute resets_at (resetsAt, reset_at) before a relative resets_in_seconds.
func structuredReset(text string, now time.Time, _ *time.Location) time.Time {
	if m := resetsAtRe().FindStringSubmatch(text); m != nil {
		if m[1] != "" {
			if v, err := strconv.ParseFloat(m[1], 64); err == nil {
				return EpochTime(v)
			}
		} else if at, err := time.Parse(time.RFC3339, m[2]); err == nil {
			return at
		}
	}
	if m := resetsInSecondsRe().FindStringSubmatch(text); m != nil {
		if n, err := strconv.ParseInt(m[1], 10, 64); err == nil && n > 0 && n < int64(maxResetSeconds) {
			return now.Add(time.Duration(n) * time.Second)
		}
	}
	return time.Time{}
}

// maxResetSeconds bounds a relative reset read from text (a year): a
// larger number is garbage, not a reset.
const maxResetSeconds = 366 * 24 * 3600

// durationReset reads a relative reset: "try again in 2 hours 5 minutes",
// "resets in 45m", "retry after 120".
func durationReset(text string, now time.Time, _ *time.Location) time.Time {
	m := resetsInRe().FindStringSubmatch(text)
	if m == nil {
		return time.Time{}
	}
	var d time.Duration
	for _, p := range durPartRe().FindAllStringSubmatch(m[1], -1) {
		n, _ := strconv.Atoi(p[1])
		switch u := strings.ToLower(p[2]); {
		case strings.HasPrefix(u, "d"):
			d += time.Duration(n) * 24 * time.Hour
		case strings.HasPrefix(u, "h"):
			d += time.Duration(n) * time.Hour
		case strings.HasPrefix(u, "m"):
			d += time.Duration(n) * time.Minute
		default:
			d += time.Duration(n) * time.Second
		}
	}
	if d <= 0 {
		return time.Time{}
	}
	return now.Add(d)
}

// clockReset reads a reset named as a clock time in loc, with its date
// when the text gives one.
func clockReset(text string, now time.Time, loc *time.Location) time.Time {
	m := resetsClockRe().FindStringSubmatch(text)
	if m == nil {
		return time.Time{}
	}
	h, _ := strconv.Atoi(m[4])
	mins, _ := strconv.Atoi(m[5])
	switch strings.ToLower(m[6]) {
	case "pm":
		if h < 12 {
			h += 12
		}
	case "am":
		if h == 12 {
			h = 0
		}
	}
	if h > 23 || mins > 59 {
		return time.Time{}
	}
	n := now.In(loc)
	if m[1] != "" {
		return dated(n, m[1], m[2], m[3], h, mins)
	}
	at := time.Date(n.Year(), n.Month(), n.Day(), h, mins, 0, 0, loc)
	switch {
	case at.After(n):
		return at
	case n.Sub(at) < recentReset:
		return n.Add(recentResetWait)
	}
	return at.AddDate(0, 0, 1)
}

// dated is the reset at h:mins on the named month and day (of year, else
// of the year that puts it next after now); zero for a day the month
// does not have.
func dated(now time.Time, month, day, year string, h, mins int) time.Time {
	mon := time.Month(strings.Index("janfebmaraprmayjunjulaugsepoctnovdec", strings.ToLower(month[:3]))/3 + 1)
	d, _ := strconv.Atoi(day)
	y, _ := strconv.Atoi(year)
	if year == "" {
		y = now.Year()
		if time.Date(y, mon, d, h, mins, 0, 0, now.Location()).Before(now.AddDate(0, 0, -1)) {
			y++ // "Jan 2" read on Dec 31st
		}
	}
	at := time.Date(y, mon, d, h, mins, 0, 0, now.Location())
	if at.Day() != d {
		return time.Time{}
	}
	return at
}

// EpochTime reads a reset time given as Unix seconds or milliseconds (the
// APIs use both); zero or negative gives the zero time.
func EpochTime(v float64) time.Time {
	switch {
	case v <= 0:
		return time.Time{}
	case v > 1e12:
		return time.UnixMilli(int64(v))
	default:
		return time.Unix(int64(v), 0)
	}
}

// DetectExhausted reads a tool's error text for a session that ran out of
// room: ExhaustedContext, ExhaustedTurns, or "" when it is neither.
func DetectExhausted(text string) string {
	switch {
	case exhaustedContextRe().MatchString(text):
		return ExhaustedContext
	case exhaustedTurnsRe().MatchString(text):
		return ExhaustedTurns
	}
	return ""
}
