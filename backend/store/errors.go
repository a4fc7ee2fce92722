package store

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/task"
)

// ErrClaimConflict is matched (errors.Is) by every *ClaimConflictError.
var ErrClaimConflict = errors.New("claim conflict")

// ClaimConflictError reports a claim lost to another runner, or a task that
// was no longer pending. Callers must not retry it.
type ClaimConflictError struct {
	TaskID string
	// Status is the task's status when the claim was refused.
	Status task.Status
	// Skipped is set when the task is pending but marked skip.
	Skipped bool
}

func (e *ClaimConflictError) Error() string {
	if e.Skipped {
		return fmt.Sprintf("claim task %s: it is marked skip", e.TaskID)
	}
	return fmt.Sprintf("claim task %s: it is %s, not pending (claimed elsewhere or changed)", e.TaskID, e.Status)
}

// Unwrap lets errors.Is match ErrClaimConflict.
func (e *ClaimConflictError) Unwrap() error { return ErrClaimConflict }

// ErrWrongStatus is matched (errors.Is) by every *StatusError.
var ErrWrongStatus = errors.New("operation not allowed in this status")

// StatusError reports an operation refused because of the task's status, for
// example editing or deleting an ongoing task.
type StatusError struct {
	Op     string
	TaskID string
	Status task.Status
	// Allowed are the statuses the operation accepts.
	Allowed []task.Status
}

func (e *StatusError) Error() string {
	var allowed []string
	for _, s := range e.Allowed {
		allowed = append(allowed, string(s))
	}
	return fmt.Sprintf("cannot %s task %s: it is %s (allowed: %s)", e.Op, e.TaskID, e.Status, strings.Join(allowed, ", "))
}

// Unwrap lets errors.Is match ErrWrongStatus.
func (e *StatusError) Unwrap() error { return ErrWrongStatus }

func requireStatus(op, id string, have task.Status, allowed ...task.Status) error {
	for _, a := range allowed {
		if have == a {
			return nil
		}
	}
	return &StatusError{Op: op, TaskID: id, Status: have, Allowed: allowed}
}

// notRunning refuses a change of how the queue treats a task (its
// priority, its skip flag) while it runs: the queue has already taken it.
func notRunning(op, id string, have task.Status) error {
	if have == task.StatusOngoing {
		return &StatusError{Op: op, TaskID: id, Status: have}
	}
	return nil
}

// ErrTooLarge is matched (errors.Is) by every *TooLargeError.
var ErrTooLarge = errors.New("too large")

// TooLargeError refuses an attachment over the size limit.
type TooLargeError struct {
	// Name is the attachment's name; Limit the limit in bytes.
	Name  string
	Limit int64
}

// Error returns `attachment "<name>": too large: over the <limit> byte limit`.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("attachment %q: too large: over the %d byte limit", e.Name, e.Limit)
}

// Unwrap lets errors.Is match ErrTooLarge.
func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// ErrExists is returned when a name is already taken (an attachment).
var ErrExists = errors.New("already exists")

func invalidf(format string, args ...any) error {
	return &task.InvalidError{Reason: fmt.Sprintf(format, args...)}
}

// isFKError reports a foreign key violation from SQLite.
func isFKError(err error) bool {
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY constraint failed")
}

// What a NotFoundError names.
const (
	WhatTask       = "task"
	WhatCommand    = "command"
	WhatAttachment = "attachment"
	WhatExecution  = "execution"
	WhatSchedule   = "schedule"
)

// NotFoundError names what does not exist: a task, a command template, an
// attachment or an execution, with its id or name. errors.Is matches
// ErrNotFound.
type NotFoundError struct {
	// What is the kind of thing (WhatTask, WhatCommand, ...).
	What string
	// ID is its id, or its name for a command or an attachment.
	ID string
}

// Error returns `<what> "<id>": not found`.
func (e *NotFoundError) Error() string { return fmt.Sprintf("%s %q: not found", e.What, e.ID) }

// Unwrap lets errors.Is match ErrNotFound.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

func notFound(what, id string) error { return &NotFoundError{What: what, ID: id} }
