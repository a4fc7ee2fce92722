// Package task holds the domain types of Boof Runner: tasks, their statuses and
// the legal transitions between them. It does no I/O.
package task

import (
	"errors"
	"fmt"
	"strings"
)

// Status is where a task stands in its lifecycle.
type Status string

const (
	// StatusDraft is a task the user is still writing; the runner ignores it.
	StatusDraft Status = "draft"
	// StatusPending is a task waiting in the queue to be claimed by the runner.
	StatusPending Status = "pending"
	// StatusOngoing is a task a runner has claimed and is running now.
	StatusOngoing Status = "ongoing"
	// StatusActions is a task parked until the user answers the planner's questions.
	StatusActions Status = "actions"
	// StatusDone is a task whose reviewer approved the work.
	StatusDone Status = "done"
	// StatusFailed is a task that ended in an error or a review that was not approved.
	StatusFailed Status = "failed"
	// StatusStopped is a task the user stopped; its work is kept.
	StatusStopped Status = "stopped"
	// StatusArchived is a task put away by the user; unarchiving restores its previous status.
	StatusArchived Status = "archived"
	// StatusAccepted is a done task whose work the user accepted into a target branch.
	StatusAccepted Status = "accepted"
	// StatusRejected is a done task whose work the user rejected; its branches are kept.
	StatusRejected Status = "rejected"
)

// Statuses lists every status in display order.
var Statuses = []Status{
	StatusDraft, StatusPending, StatusOngoing, StatusActions, StatusDone,
	StatusFailed, StatusStopped, StatusAccepted, StatusRejected, StatusArchived,
}

// ParseStatus returns the status named s, or ErrUnknownStatus.
func ParseStatus(s string) (Status, error) {
	for _, st := range Statuses {
		if string(st) == s {
			return st, nil
		}
	}
	return "", &UnknownStatusError{Name: s}
}

// ErrUnknownStatus is matched (errors.Is) by every *UnknownStatusError.
var ErrUnknownStatus = errors.New("unknown status")

// UnknownStatusError is a status name that does not exist.
type UnknownStatusError struct {
	Name string
}

// Error names the status and the statuses there are.
func (e *UnknownStatusError) Error() string {
	names := make([]string, len(Statuses))
	for i, s := range Statuses {
		names[i] = string(s)
	}
	return fmt.Sprintf("%s %q (the statuses are %s)", ErrUnknownStatus, e.Name, strings.Join(names, ", "))
}

// Unwrap lets errors.Is match ErrUnknownStatus.
func (e *UnknownStatusError) Unwrap() error { return ErrUnknownStatus }

// ErrIllegalTransition is matched (errors.Is) by every *TransitionError.
var ErrIllegalTransition = errors.New("illegal status transition")

// TransitionError reports a refused status change.
type TransitionError struct {
	From, To Status
}

func (e *TransitionError) Error() string {
	return fmt.Sprintf("illegal status transition %s → %s", e.From, e.To)
}

// Unwrap lets errors.Is match ErrIllegalTransition.
func (e *TransitionError) Unwrap() error { return ErrIllegalTransition }

// transitions is the one table of legal status changes. Unarchive is handled
// separately because its target depends on the status before archiving.
var transitions = map[Status][]Status{
	StatusDraft:    {StatusPending, StatusArchived},
	StatusPending:  {StatusOngoing, StatusDraft},
	StatusOngoing:  {StatusActions, StatusDone, StatusFailed, StatusStopped, StatusPending},
	StatusActions:  {StatusPending},
	StatusDone:     {StatusArchived, StatusAccepted, StatusRejected, StatusPending},
	StatusFailed:   {StatusPending, StatusArchived},
	StatusStopped:  {StatusPending, StatusArchived},
	StatusAccepted: {StatusDone, StatusArchived},
	StatusRejected: {StatusPending, StatusArchived},
	StatusArchived: {StatusDraft, StatusDone, StatusFailed, StatusStopped, StatusAccepted, StatusRejected},
}

// CanTransition reports whether from → to is in the table.
func CanTransition(from, to Status) bool {
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// CheckTransition returns nil when from → to is legal and a *TransitionError
// otherwise.
func CheckTransition(from, to Status) error {
	if !CanTransition(from, to) {
		return &TransitionError{From: from, To: to}
	}
	return nil
}

// CheckUnarchive returns nil when an archived task may return to prev, the
// status it had before it was archived.
func CheckUnarchive(current, prev Status) error {
	if current != StatusArchived || !CanTransition(StatusArchived, prev) {
		return &TransitionError{From: current, To: prev}
	}
	return nil
}

// Terminal reports whether a task in s has finished running.
func (s Status) Terminal() bool {
	switch s {
	case StatusDone, StatusFailed, StatusStopped, StatusAccepted, StatusRejected:
		return true
	}
	return false
}
