package task

import (
	"fmt"
	"strings"
)

// VerifyOutcome is how one run of the verify command ended.
type VerifyOutcome string

const (
	// VerifyPassed is a verify command that exited 0.
	VerifyPassed VerifyOutcome = "passed"
	// VerifyFailed is a verify command that exited non-zero or was killed
	// by a signal it did not get from us.
	VerifyFailed VerifyOutcome = "failed"
	// VerifyTimedOut is a verify command stopped at its timeout.
	VerifyTimedOut VerifyOutcome = "timed_out"
	// VerifyOutputLimit is a verify command stopped because it printed more
	// than the output cap.
	VerifyOutputLimit VerifyOutcome = "output_limit"
	// VerifyStopped is a verify command the user (or the app exiting) stopped.
	VerifyStopped VerifyOutcome = "stopped"
	// VerifyNotStarted is a verify command that could not be started at all.
	VerifyNotStarted VerifyOutcome = "not_started"
	// VerifySkipped is a gate that did not run the command: the work has no
	// changes against its base.
	VerifySkipped VerifyOutcome = "skipped"
)

// Passed reports whether the gate may go on: the command passed, or it was
// skipped because there was nothing to verify.
func (o VerifyOutcome) Passed() bool { return o == VerifyPassed || o == VerifySkipped }

// VerifySource says where a verify command came from.
type VerifySource string

const (
	// VerifyFromTask is the task's own command (add --verify).
	VerifyFromTask VerifySource = "task"
	// VerifyFromRepo is the repository's command (verify set --repo).
	VerifyFromRepo VerifySource = "repo"
	// VerifyFromSettings is the global setting verify.command.
	VerifyFromSettings VerifySource = "settings"
)

// MaxVerifyCommand is the longest verify command accepted, in bytes.
const MaxVerifyCommand = 4096

// CheckVerifyCommand returns the trimmed command, or an error wrapping
// ErrInvalid for an empty one, one longer than MaxVerifyCommand, or one
// that is not one line of plain text (a line break, a control character,
// invalid UTF-8).
func CheckVerifyCommand(cmd string) (string, error) {
	cmd = strings.TrimSpace(cmd)
	switch {
	case cmd == "":
		return "", invalid("verify command is empty")
	case len(cmd) > MaxVerifyCommand:
		return "", invalid("verify command is longer than %d bytes", MaxVerifyCommand)
	}
	if p := LineProblem(cmd); p != "" {
		return "", invalid("verify command %s", p)
	}
	return cmd, nil
}

// TaskVerify is a task's own choice of verify command: Command wins over
// the repository's and the global one; Skip runs none for this task.
type TaskVerify struct {
	Command string `json:"command,omitempty"`
	Skip    bool   `json:"skip,omitempty"`
}

// Normalize checks the command (CheckVerifyCommand) and refuses a command
// together with Skip; errors wrap ErrInvalid.
func (v TaskVerify) Normalize() (TaskVerify, error) {
	if v.Skip {
		if strings.TrimSpace(v.Command) != "" {
			return v, invalid("a task cannot both name a verify command and skip verification")
		}
		v.Command = ""
		return v, nil
	}
	cmd, err := CheckVerifyCommand(v.Command)
	if err != nil {
		return v, err
	}
	v.Command = cmd
	return v, nil
}

// VerifyRun is what one run of the verify command gave; it is the payload
// of EventVerification and the content of a SectionVerification.
type VerifyRun struct {
	// Execution is the run's execution row (0 for a merge-queue run).
	Execution int64 `json:"execution,omitempty"`
	// Step names the run in the log ("verify", "verify-2").
	Step      string `json:"step,omitempty"`
	Iteration int    `json:"iteration,omitempty"`
	Round     int    `json:"round,omitempty"`
	// Command is the shell command that ran; Source where it came from.
	Command string       `json:"command"`
	Source  VerifySource `json:"source,omitempty"`
	// Where is "task" (the gate, in the task's worktree), "queue" (a merge
	// queue landing, in a temporary worktree) or "manual" (boof-runner
	// verify ID).
	Where   string        `json:"where,omitempty"`
	Outcome VerifyOutcome `json:"outcome"`
	// ExitCode is the command's exit status (-1 when killed or never started).
	ExitCode int `json:"exit_code"`
	// Signal names the signal that ended it, "" when it exited.
	Signal     string `json:"signal,omitempty"`
	DurationMs int64  `json:"duration_ms"`
	// Tail is the end of its output (the last lines, terminal escapes
	// removed, secrets scrubbed).
	Tail string `json:"tail,omitempty"`
	// Bytes is how much it printed in all.
	Bytes int64 `json:"bytes,omitempty"`
	// Restored counts the files put back after it changed them.
	Restored int `json:"restored,omitempty"`
	// Error says why it could not start, or what stopped it.
	Error string `json:"error,omitempty"`
}

// Summary is the run's one line: "`go test ./...` passed (exit 0, 1.2 s)".
func (v VerifyRun) Summary() string {
	dur := fmt.Sprintf("%.1f s", float64(v.DurationMs)/1000)
	switch v.Outcome {
	case VerifyPassed:
		return fmt.Sprintf("`%s` passed (exit 0, %s)", v.Command, dur)
	case VerifySkipped:
		return fmt.Sprintf("`%s` skipped: the work has no changes against its base", v.Command)
	case VerifyTimedOut:
		return fmt.Sprintf("`%s` timed out after %s", v.Command, dur)
	case VerifyOutputLimit:
		return fmt.Sprintf("`%s` was stopped: %s", v.Command, v.Error)
	case VerifyStopped:
		return fmt.Sprintf("`%s` was stopped after %s", v.Command, dur)
	case VerifyNotStarted:
		return fmt.Sprintf("`%s` could not start: %s", v.Command, v.Error)
	}
	if v.Signal != "" {
		return fmt.Sprintf("`%s` failed (killed by %s, %s)", v.Command, v.Signal, dur)
	}
	return fmt.Sprintf("`%s` failed (exit %d, %s)", v.Command, v.ExitCode, dur)
}

// FailureMessage is what a task that ran out of fix rounds on this run
// fails with: "verification failed: <command> exited 1".
func (v VerifyRun) FailureMessage() string {
	switch v.Outcome {
	case VerifyTimedOut:
		return fmt.Sprintf("verification failed: %s timed out after %.1f s", v.Command, float64(v.DurationMs)/1000)
	case VerifyOutputLimit:
		return fmt.Sprintf("verification failed: %s printed too much output (%s)", v.Command, v.Error)
	case VerifyNotStarted:
		return fmt.Sprintf("verification failed: %s could not start (%s)", v.Command, v.Error)
	}
	if v.Signal != "" {
		return fmt.Sprintf("verification failed: %s was killed by %s", v.Command, v.Signal)
	}
	return fmt.Sprintf("verification failed: %s exited %d", v.Command, v.ExitCode)
}

// Body renders the run as a section body: the command, exit status,
// duration and the output tail.
func (v VerifyRun) Body() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Command: `%s`", v.Command)
	if v.Source != "" {
		fmt.Fprintf(&b, " (from %s)", v.Source)
	}
	fmt.Fprintf(&b, "\nOutcome: %s\n", v.Outcome)
	if v.Outcome != VerifySkipped {
		fmt.Fprintf(&b, "Exit status: %d", v.ExitCode)
		if v.Signal != "" {
			fmt.Fprintf(&b, " (%s)", v.Signal)
		}
		fmt.Fprintf(&b, "\nDuration: %.1f s\n", float64(v.DurationMs)/1000)
	}
	if v.Error != "" {
		fmt.Fprintf(&b, "Problem: %s\n", v.Error)
	}
	if v.Restored > 0 {
		fmt.Fprintf(&b, "Restored %d file(s) the command changed.\n", v.Restored)
	}
	if t := strings.TrimRight(v.Tail, "\n"); t != "" {
		b.WriteString("\nOutput (last lines):\n\n```\n")
		b.WriteString(strings.ReplaceAll(t, "```", "`\u200b``"))
		b.WriteString("\n```\n")
	}
	return b.String()
}

// Kind returns EventVerification.
func (VerifyRun) Kind() EventKind { return EventVerification }

// MapText applies f to the command, the output tail and the error.
func (v VerifyRun) MapText(f func(string) string) EventData {
	v.Command, v.Tail, v.Error = f(v.Command), f(v.Tail), f(v.Error)
	return v
}
