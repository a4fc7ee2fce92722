package task

import "time"

// The payloads of the task's lifecycle events, written by the store in the
// transaction that makes the change.

// Created is the payload of EventCreated.
type Created struct {
	// Status is the status the task was created in (draft or pending).
	Status Status `json:"status"`
	// Command names the command template whose text was copied into the
	// task ("" when none).
	Command string `json:"command,omitempty"`
}

// Imported is the payload of EventImported.
type Imported struct {
	Status Status `json:"status"`
	// OriginID is the id the task had in the file it came from.
	OriginID string `json:"origin_id,omitempty"`
}

// Edited is the payload of EventEdited.
type Edited struct{}

// StatusChanged is the payload of EventStatusChanged.
type StatusChanged struct {
	From Status `json:"from"`
	To   Status `json:"to"`
	// Reason is a short cause ("claimed", "approved", "stopped by user").
	Reason string `json:"reason,omitempty"`
}

// Claimed is the payload of EventClaimed.
type Claimed struct {
	// Runner names the runner (host and pid) that took the task.
	Runner string `json:"runner"`
}

// SkipChanged is the payload of EventSkipChanged.
type SkipChanged struct {
	Skip bool `json:"skip"`
}

// PriorityChanged is the payload of EventPriorityChanged.
type PriorityChanged struct {
	Priority int `json:"priority"`
}

// Reordered is the payload of EventReordered.
type Reordered struct {
	// Anchor is the task this one was placed next to; After says on which side.
	Anchor   string `json:"anchor"`
	After    bool   `json:"after"`
	Priority int    `json:"priority"`
}

// AttachmentAdded is the payload of EventAttachmentAdded.
type AttachmentAdded struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// AttachmentRemoved is the payload of EventAttachmentRemoved.
type AttachmentRemoved struct {
	Name string `json:"name"`
}

// StopRequested is the payload of EventStopRequested.
type StopRequested struct{}

// PromptInjected is the payload of EventPromptInjected.
type PromptInjected struct {
	// Injection is the injected prompt's id.
	Injection int64 `json:"injection"`
	Bytes     int   `json:"bytes"`
	// Text is the prompt itself, in the live feed only (the store keeps it
	// with the injection, not in the history).
	Text string `json:"text,omitempty"`
}

// QuestionsAsked is the payload of EventQuestionsAsked.
type QuestionsAsked struct {
	Count int `json:"count"`
}

// Answered is the payload of EventAnswered.
type Answered struct {
	Bytes int `json:"bytes"`
}

// Recovered is the payload of EventRecovered.
type Recovered struct {
	Reason string `json:"reason,omitempty"`
	// Completed is the status recovery finished a decided run with (its
	// outcome was durable before the app exited), "" when the run was
	// interrupted.
	Completed Status    `json:"completed,omitempty"`
	At        time.Time `json:"at"`
}

// Exported is the payload of EventExported: to a file (the CLI) or through
// the window (Via "ui").
type Exported struct {
	Via   string `json:"via,omitempty"`
	File  string `json:"file,omitempty"`
	Bytes int    `json:"bytes,omitempty"`
}

// Kind returns EventCreated.
func (Created) Kind() EventKind { return EventCreated }

// Kind returns EventImported.
func (Imported) Kind() EventKind { return EventImported }

// Kind returns EventEdited.
func (Edited) Kind() EventKind { return EventEdited }

// Kind returns EventStatusChanged.
func (StatusChanged) Kind() EventKind { return EventStatusChanged }

// Kind returns EventClaimed.
func (Claimed) Kind() EventKind { return EventClaimed }

// Kind returns EventSkipChanged.
func (SkipChanged) Kind() EventKind { return EventSkipChanged }

// Kind returns EventPriorityChanged.
func (PriorityChanged) Kind() EventKind { return EventPriorityChanged }

// Kind returns EventReordered.
func (Reordered) Kind() EventKind { return EventReordered }

// Kind returns EventAttachmentAdded.
func (AttachmentAdded) Kind() EventKind { return EventAttachmentAdded }

// Kind returns EventAttachmentRemoved.
func (AttachmentRemoved) Kind() EventKind { return EventAttachmentRemoved }

// Kind returns EventStopRequested.
func (StopRequested) Kind() EventKind { return EventStopRequested }

// Kind returns EventPromptInjected.
func (PromptInjected) Kind() EventKind { return EventPromptInjected }

// MapText applies f to the injected text.
func (p PromptInjected) MapText(f func(string) string) EventData { p.Text = f(p.Text); return p }

// Kind returns EventQuestionsAsked.
func (QuestionsAsked) Kind() EventKind { return EventQuestionsAsked }

// Kind returns EventAnswered.
func (Answered) Kind() EventKind { return EventAnswered }

// Kind returns EventRecovered.
func (Recovered) Kind() EventKind { return EventRecovered }

// Kind returns EventExported.
func (Exported) Kind() EventKind { return EventExported }
