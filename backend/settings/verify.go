package settings

import (
	"errors"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/task"
)

// Defaults and limits of settings.verify.
const (
	// DefaultVerifyTimeoutMs stops a verify command after 20 minutes.
	DefaultVerifyTimeoutMs = 20 * 60 * 1000
	// DefaultVerifyMaxOutputBytes stops a verify command that prints more
	// than 16 MiB (its transcript holds exactly that much).
	DefaultVerifyMaxOutputBytes = 16 << 20

	minVerifyTimeoutMs      = 1000
	maxVerifyTimeoutMs      = 24 * 3600 * 1000
	minVerifyMaxOutputBytes = 64 << 10
	maxVerifyMaxOutputBytes = 1 << 30
)

// Verify holds settings.verify: the verification gate's global command and
// its limits. A repository's command (boof-runner verify set --repo) and a
// task's own (add --verify) win over Command; with none of the three the
// gate runs nothing.
type Verify struct {
	// Command is the shell command that must pass ("" = none).
	Command string `json:"command,omitempty"`
	// TimeoutMs stops the command (and everything it started) after this long.
	TimeoutMs int64 `json:"timeoutMs"`
	// MaxOutputBytes stops the command once it printed more than this.
	MaxOutputBytes int64 `json:"maxOutputBytes"`
}

func defaultVerify() Verify {
	return Verify{TimeoutMs: DefaultVerifyTimeoutMs, MaxOutputBytes: DefaultVerifyMaxOutputBytes}
}

// problems reports every bad value of settings.verify through bad.
func (v Verify) problems(bad func(key, format string, args ...any)) {
	if v.Command != "" {
		if _, err := task.CheckVerifyCommand(v.Command); err != nil {
			var ie *task.InvalidError
			reason := err.Error()
			if errors.As(err, &ie) {
				reason = ie.Reason
			}
			bad("verify.command", "%s", verifyReason(reason))
		}
	}
	if v.TimeoutMs < minVerifyTimeoutMs || v.TimeoutMs > maxVerifyTimeoutMs {
		bad("verify.timeoutMs", "must be between %d and %d (got %d)", minVerifyTimeoutMs, maxVerifyTimeoutMs, v.TimeoutMs)
	}
	if v.MaxOutputBytes < minVerifyMaxOutputBytes || v.MaxOutputBytes > maxVerifyMaxOutputBytes {
		bad("verify.maxOutputBytes", "must be between %d and %d (got %d)", minVerifyMaxOutputBytes, maxVerifyMaxOutputBytes, v.MaxOutputBytes)
	}
}

// verifyReason turns "verify command is empty" into "must not be empty" style
// words that complete "verify.command …".
func verifyReason(reason string) string {
	const prefix = "verify command "
	if len(reason) > len(prefix) && reason[:len(prefix)] == prefix {
		reason = reason[len(prefix):]
	}
	return fmt.Sprintf("must be one line of shell (%s)", reason)
}
