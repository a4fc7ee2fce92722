package proc

import (
	"errors"
	"fmt"
	"time"
)

// Sentinel errors callers branch on with errors.Is.
var (
	// ErrStalled is matched by *StalledError.
	ErrStalled = errors.New("stalled")
	// ErrTimeout means the child ran longer than Spec.MaxRuntime.
	ErrTimeout = errors.New("max runtime exceeded")
	// ErrOutputLimit means the child wrote more than Spec.OutputLimit bytes.
	ErrOutputLimit = errors.New("output limit exceeded")
	// ErrStopped means the child was stopped on request; ErrShutdown and
	// ErrCanceled wrap it.
	ErrStopped = errors.New("stopped")
	// ErrShutdown means Runner.Shutdown stopped the child.
	ErrShutdown = fmt.Errorf("%w: app shutting down", ErrStopped)
	// ErrCanceled means the Start context was canceled.
	ErrCanceled = fmt.Errorf("%w: context canceled", ErrStopped)
	// ErrTranscript means the transcript could not be written.
	ErrTranscript = errors.New("transcript write failed")
	// ErrNoInput is returned by Write and CloseInput when Stdin is StdinNull.
	ErrNoInput = errors.New("child stdin is not writable")
	// ErrInputClosed is returned by Write after CloseInput or after the child ended.
	ErrInputClosed = errors.New("child stdin closed")
	// ErrNoEOF is returned by CloseInput in StdinPTY mode: a raw-mode PTY
	// has no way to signal end of input.
	ErrNoEOF = errors.New("raw pty input cannot signal eof")
	// ErrRunnerClosed is returned by Start after Shutdown.
	ErrRunnerClosed = errors.New("runner is shut down")
	// ErrInvalidSpec is wrapped by Start for a bad Spec.
	ErrInvalidSpec = errors.New("invalid spec")
)

// StalledError reports that the idle watchdog stopped a child.
type StalledError struct {
	// Idle is the idle timeout that elapsed without output.
	Idle time.Duration
}

// Error names the idle time, in minutes when it is at least a minute.
func (e *StalledError) Error() string {
	return "stalled: no output for " + formatIdle(e.Idle)
}

// Is makes errors.Is(err, ErrStalled) true.
func (e *StalledError) Is(target error) bool { return target == ErrStalled }

func formatIdle(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return fmt.Sprintf("%d min", int(d/time.Minute))
	}
	if d >= time.Minute {
		return fmt.Sprintf("%.1f min", d.Minutes())
	}
	return d.String()
}

// ExitError reports a child that ended on its own with a non-zero status
// or by a signal.
type ExitError struct {
	// Code is the exit status, or -1 when the child was killed by a signal.
	Code int
	// Signal names the signal that killed it ("killed"), or is empty.
	Signal string
}

// Error describes the exit.
func (e *ExitError) Error() string {
	if e.Signal != "" {
		return "exited by signal: " + e.Signal
	}
	return fmt.Sprintf("exit status %d", e.Code)
}

// Result is the outcome of one run.
type Result struct {
	// ExitCode is the exit status, or -1 if killed by a signal.
	ExitCode int
	// Signal names the killing signal ("terminated", "killed"), "" if exited.
	Signal string
	// Reason says why we stopped it; ReasonNone if it ended on its own.
	Reason Reason
	// Bytes counts the output bytes seen, including any past OutputLimit.
	Bytes int64
	// Dropped counts output bytes the consumer (OnChunk) did not get
	// because it fell too far behind. The transcript never drops bytes.
	Dropped int64
	// Duration is the time from start until the tree was torn down.
	Duration time.Duration
	// Started is when the child was started.
	Started time.Time
	// IdleTimeout and MaxRuntime echo the spec, for error messages.
	IdleTimeout, MaxRuntime time.Duration
	// OutputLimit echoes the spec, for error messages.
	OutputLimit int64
}

// Err returns nil when the child exited 0 on its own, *StalledError for
// ReasonStalled, an error wrapping ErrTimeout, ErrOutputLimit, ErrStopped
// (ErrShutdown, ErrCanceled) or ErrTranscript for the other reasons, and
// *ExitError for a non-zero exit or a signal the runner did not send.
func (r Result) Err() error {
	switch r.Reason {
	case ReasonNone:
		if r.ExitCode == 0 && r.Signal == "" {
			return nil
		}
		return &ExitError{Code: r.ExitCode, Signal: r.Signal}
	case ReasonStalled:
		return &StalledError{Idle: r.IdleTimeout}
	case ReasonTimeout:
		return fmt.Errorf("%w: ran for %s", ErrTimeout, r.MaxRuntime)
	case ReasonOutputLimit:
		return fmt.Errorf("%w: more than %d bytes", ErrOutputLimit, r.OutputLimit)
	case ReasonShutdown:
		return ErrShutdown
	case ReasonCanceled:
		return ErrCanceled
	case ReasonTranscript:
		return ErrTranscript
	default:
		return ErrStopped
	}
}

// ErrUnsafeTarget is returned by KillTree for a pgid or pid that must never
// be signaled (init, the kernel, this process or its own group).
var ErrUnsafeTarget = errors.New("unsafe kill target")

// ErrSurvivors is wrapped when processes outlived SIGKILL for killPhaseLimit.
var ErrSurvivors = errors.New("processes survived sigkill")
