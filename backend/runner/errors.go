package runner

import (
	"fmt"

	"github.com/boof-runner/boof-runner/backend/task"
)

// UnrecordedError reports a task whose run ended but whose outcome the
// store could not record (the disk filled up, the database broke). The
// runner then tried again to record the outcome it had decided, or, when
// none was decided, to record the task as failed, saying why; and it
// stopped starting tasks.
type UnrecordedError struct {
	TaskID string
	// Outcome is the status the run ended with, "" when it ended before
	// one was decided.
	Outcome task.Status
	// Decided is the run's decided outcome (durable, its run counted), ""
	// when it had none: then the task is recorded as failed.
	Decided task.Status
	// Recorded is true when the task was recorded after all (as Decided,
	// else as failed); false leaves it ongoing for the next start's
	// recovery.
	Recorded bool
	// Err is the store's error.
	Err error
}

// Error returns "task <id>: outcome not recorded: <cause>".
func (e *UnrecordedError) Error() string {
	return fmt.Sprintf("task %s: outcome not recorded: %v", e.TaskID, e.Err)
}

// Unwrap returns the store's error.
func (e *UnrecordedError) Unwrap() error { return e.Err }

// NotReadyError reports that the runner started no task because
// Options.Ready refused (a broken settings file).
type NotReadyError struct {
	Err error
}

// Error returns "runner not ready: <cause>".
func (e *NotReadyError) Error() string { return "runner not ready: " + e.Err.Error() }

// Unwrap returns the cause.
func (e *NotReadyError) Unwrap() error { return e.Err }

// QueueError reports a failure to read or claim from the queue (other than
// a claim lost to another runner, which is never an error).
type QueueError struct {
	// Op is "next pending task" or "claim".
	Op     string
	TaskID string
	Err    error
}

// Error returns "<op> <id>: <cause>".
func (e *QueueError) Error() string {
	if e.TaskID != "" {
		return fmt.Sprintf("%s %s: %v", e.Op, e.TaskID, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Op, e.Err)
}

// Unwrap returns the cause.
func (e *QueueError) Unwrap() error { return e.Err }
