package task

import (
	"fmt"
	"time"
)

// Bounds of a usage limit's reset time.
const (
	// DefaultLimitWait is how long a tool is paused when its limit names no reset time.
	DefaultLimitWait = time.Hour
	// MinLimitWait is the shortest pause: a reset time in the past (a
	// skewed clock) still waits this long, so the queue does not spin.
	MinLimitWait = time.Minute
	// MaxLimitWait is the longest pause: a reset time further ahead (a
	// garbled value) is cut to it; the user can resume the tool early.
	MaxLimitWait = 8 * 24 * time.Hour
)

// ClampReset turns the reset time a tool reported into the end of its
// pause at now: none gives DefaultLimitWait, a time in the past
// MinLimitWait and one too far ahead MaxLimitWait. warning says what was
// corrected, "" when the time was taken as it was.
func ClampReset(reported, now time.Time) (until time.Time, warning string) {
	switch {
	case reported.IsZero():
		return now.Add(DefaultLimitWait), fmt.Sprintf("the tool named no reset time; waiting %s", DefaultLimitWait)
	case !reported.After(now):
		return now.Add(MinLimitWait), fmt.Sprintf("the reported reset time %s is in the past; waiting %s",
			reported.UTC().Format(time.RFC3339), MinLimitWait)
	case reported.Sub(now) > MaxLimitWait:
		return now.Add(MaxLimitWait), fmt.Sprintf("the reported reset time %s is too far ahead; waiting %s at most",
			reported.UTC().Format(time.RFC3339), MaxLimitWait)
	}
	return reported, ""
}
