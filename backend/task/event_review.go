package task

import "time"

// The payloads of the review decisions, written by the review service's
// recorder together with the status change.

// Accepted is the payload of EventAccepted: the accept record, which undo
// reads back.
type Accepted struct {
	// Strategy is "merge", "squash" or "rebase".
	Strategy string `json:"strategy"`
	// Target is the full target ref (refs/heads/...).
	Target string `json:"target"`
	// OldSHA and NewSHA are the target's commit before and after.
	OldSHA string `json:"old_sha"`
	NewSHA string `json:"new_sha"`
	// TaskHead is the task branch commit that was accepted.
	TaskHead string `json:"task_head"`
	// Leftovers is the leftovers commit included, "" when none.
	Leftovers string `json:"leftovers,omitempty"`
	// Checkout is the directory whose checkout was moved, "" when none.
	Checkout string    `json:"checkout,omitempty"`
	At       time.Time `json:"at"`
	// Only lists the files and hunks a hunk-level accept took (a squash
	// of just those); empty for an accept of the whole branch.
	Only []AcceptedFile `json:"only,omitempty"`
}

// AcceptedFile is one file of a hunk-level accept.
type AcceptedFile struct {
	// File is the path in the task's diff.
	File string `json:"file"`
	// Hunks are the 1-based indexes of the hunks taken among the file's
	// hunks, with their "@@" headers; empty for the whole file.
	Hunks   []int    `json:"hunks,omitempty"`
	Headers []string `json:"headers,omitempty"`
}

// AcceptUndone is the payload of EventAcceptUndone: the record of the
// accept that was undone.
type AcceptUndone struct {
	Accepted
}

// RejectedBranch is a branch a reject deleted.
type RejectedBranch struct {
	Name string `json:"name"`
	SHA  string `json:"sha"`
	// Unique counts its commits no other local branch held.
	Unique   int    `json:"unique"`
	Worktree string `json:"worktree,omitempty"`
}

// Rejected is the payload of EventRejected.
type Rejected struct {
	// Deleted are the branches deleted (none unless the user asked).
	Deleted []RejectedBranch `json:"deleted"`
	At      time.Time        `json:"at"`
}

// ChangesRequested is the payload of EventChangesRequested: the task was
// queued for a fix run that addresses the request.
type ChangesRequested struct {
	Comments int `json:"comments"`
	Drops    int `json:"drops"`
	// Request is the change request's id; Fix its ordinal on the task
	// (fix run 1, 2 ...). Both are 0 in history written before fix runs.
	Request int64 `json:"request,omitempty"`
	Fix     int   `json:"fix,omitempty"`
	// General is true when the request has a general comment.
	General bool `json:"general,omitempty"`
	// Source says who asked: "review" (the user's review), "conflicts"
	// (resolve an accept's conflicts) or another sender's name.
	Source string `json:"source,omitempty"`
}

// AcceptReconciled is the payload of EventAcceptReconciled: what the
// start-up reconciliation did with a journaled ref move a crash cut short.
type AcceptReconciled struct {
	// Op is "accept" or "undo".
	Op string `json:"op"`
	// Ref is the target ref; Old and New the move's commits.
	Ref string `json:"ref"`
	Old string `json:"old"`
	New string `json:"new"`
	// Completed is true when the move now stands, false when it was rolled back.
	Completed bool `json:"completed"`
	// Detail says why.
	Detail string `json:"detail"`
}

// Kind returns EventAcceptReconciled.
func (AcceptReconciled) Kind() EventKind { return EventAcceptReconciled }

// Kind returns EventAccepted.
func (Accepted) Kind() EventKind { return EventAccepted }

// Kind returns EventAcceptUndone.
func (AcceptUndone) Kind() EventKind { return EventAcceptUndone }

// Kind returns EventRejected.
func (Rejected) Kind() EventKind { return EventRejected }

// Kind returns EventChangesRequested.
func (ChangesRequested) Kind() EventKind { return EventChangesRequested }
