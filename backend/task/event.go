package task

import (
	"encoding/json"
	"time"
)

// EventKind names a kind of task event. Every kind is declared here, once,
// with its one payload type (the EventData whose Kind returns it). Stored
// kinds make up a task's history (the store's events table); live kinds are
// only streamed to the live feed while a step runs (their text is in the
// log and the transcript). The pipeline emits both through one value, which
// the store writes and the live feed renders.
type EventKind string

// The event kinds: what a task went through. Each names its payload type.
const (
	// EventCreated (Created, stored): the task was added.
	EventCreated EventKind = "created"
	// EventImported (Imported, stored): the task was imported from a file.
	EventImported EventKind = "imported"
	// EventEdited (Edited, stored): the task's prompt or fields were edited.
	EventEdited EventKind = "edited"
	// EventStatusChanged (StatusChanged, stored): the task moved to another status.
	EventStatusChanged EventKind = "status_changed"
	// EventClaimed (Claimed, stored): a runner took the task to run it.
	EventClaimed EventKind = "claimed"
	// EventSkipChanged (SkipChanged, stored): the task was skipped or unskipped in the queue.
	EventSkipChanged EventKind = "skip_changed"
	// EventPriorityChanged (PriorityChanged, stored): the task's priority changed.
	EventPriorityChanged EventKind = "priority_changed"
	// EventReordered (Reordered, stored): the task was moved next to another in the queue.
	EventReordered EventKind = "reordered"
	// EventAttachmentAdded (AttachmentAdded, stored): a file was attached.
	EventAttachmentAdded EventKind = "attachment_added"
	// EventAttachmentRemoved (AttachmentRemoved, stored): an attachment was removed.
	EventAttachmentRemoved EventKind = "attachment_removed"
	// EventStopRequested (StopRequested, stored): the user asked to stop the run.
	EventStopRequested EventKind = "stop_requested"
	// EventPromptInjected (PromptInjected, stored): the user injected a prompt.
	EventPromptInjected EventKind = "prompt_injected"
	// EventQuestionsAsked (QuestionsAsked, stored): the planner asked the user
	// questions; the task waits in actions.
	EventQuestionsAsked EventKind = "question_asked"
	// EventAnswered (Answered, stored): the user answered the planner's questions.
	EventAnswered EventKind = "answered"
	// EventRecovered (Recovered, stored): the app found the task running after a
	// crash or exit and stopped it.
	EventRecovered EventKind = "recovered"
	// EventExported (Exported, stored): the task was exported to markdown.
	EventExported EventKind = "exported"

	// EventStepStarted (StepStarted, stored, pipeline): a step attempt started.
	EventStepStarted EventKind = "step_started"
	// EventStepFinished (StepFinished, stored, pipeline): a step attempt ended.
	EventStepFinished EventKind = "step_finished"
	// EventVerdict (VerdictGiven, stored, pipeline): an observer or reviewer gave its verdict.
	EventVerdict EventKind = "verdict"
	// EventRetryScheduled (RetryScheduled, stored, pipeline): a step failed
	// transiently and runs again after a backoff, in the same worktree.
	EventRetryScheduled EventKind = "retry_scheduled"
	// EventPlannerAsked (PlannerAsked, stored, pipeline): a role asked
	// questions mid-run and the planner answers them.
	EventPlannerAsked EventKind = "planner_asked"
	// EventPlannerAnswered (PlannerAnswered, stored, pipeline): the planner
	// answered a role's questions; the role runs again with the answers.
	EventPlannerAnswered EventKind = "planner_answered"
	// EventInjectionApplied (InjectionApplied, stored, pipeline): an injected
	// prompt reached a step, live into its session or in its prompt.
	EventInjectionApplied EventKind = "injection_applied"
	// EventOutcomeDecided (OutcomeDecided, stored, pipeline): the run's outcome
	// was made durable before its clean-up; a restart finishes from it.
	EventOutcomeDecided EventKind = "outcome_decided"

	// EventVerification (VerifyRun, stored, pipeline and merge queue): the
	// verify command ran (or was skipped) and passed or failed.
	EventVerification EventKind = "verification"

	// EventNote (Note, live, pipeline): a line of the run's log that is no
	// other event (run started, worktree notes, the run's end).
	EventNote EventKind = "note"
	// EventText (AgentText, live, pipeline): text the agent wrote.
	EventText EventKind = "text"
	// EventToolCall (ToolCall, live, pipeline): the agent called one of its tools.
	EventToolCall EventKind = "tool_call"
	// EventToolResult (ToolResult, live, pipeline): the result of a tool call.
	EventToolResult EventKind = "tool_result"
	// EventToolRetry (ToolRetry, live, pipeline): the agent CLI retries an API
	// error by itself.
	EventToolRetry EventKind = "tool_retry"
	// EventQuestion (AgentQuestion, live, pipeline): a question in the agent's report.
	EventQuestion EventKind = "question"
	// EventUsage (UsageReport, live, pipeline): the running step's usage so far.
	EventUsage EventKind = "usage"

	// EventAccepted (Accepted, stored, review): the work was accepted into its target.
	EventAccepted EventKind = "accepted"
	// EventAcceptUndone (AcceptUndone, stored, review): an accept was undone.
	EventAcceptUndone EventKind = "accept_undone"
	// EventRejected (Rejected, stored, review): the work was rejected.
	EventRejected EventKind = "rejected"
	// EventChangesRequested (ChangesRequested, stored, review): the user asked
	// for changes; the task runs again with the review.
	EventChangesRequested EventKind = "changes_requested"
	// EventAcceptReconciled (AcceptReconciled, stored, review): an accept or
	// undo cut short by a crash was completed or rolled back.
	EventAcceptReconciled EventKind = "accept_reconciled"
	// EventMergeQueue (MergeQueued, stored, merge queue): the task's entry in
	// the merge queue was added, moved, blocked, landed, sent back...
	EventMergeQueue EventKind = "merge_queue"
)

// EventData is the payload of an event. Each kind has exactly one payload
// type, a struct of this package with json tags; Kind names it.
type EventData interface {
	Kind() EventKind
}

// Event is one event of a task: a stored entry of its history (ID > 0) or a
// live one.
type Event struct {
	ID     int64     `json:"id,omitempty"`
	TaskID string    `json:"task_id"`
	At     time.Time `json:"at"`
	Data   EventData `json:"data"`
}

// Kind is the kind of the event's payload ("" for none).
func (e Event) Kind() EventKind {
	if e.Data == nil {
		return ""
	}
	return e.Data.Kind()
}

// kindSpec is what this package knows about a kind: whether it is stored
// and how its payload decodes.
type kindSpec struct {
	stored bool
	decode func(raw []byte) (EventData, error)
}

func decodeAs[T EventData](raw []byte) (EventData, error) {
	var v T
	if len(raw) == 0 {
		return v, nil
	}
	err := json.Unmarshal(raw, &v)
	return v, err
}

func stored[T EventData]() kindSpec { return kindSpec{stored: true, decode: decodeAs[T]} }
func live[T EventData]() kindSpec   { return kindSpec{decode: decodeAs[T]} }

var kinds = map[EventKind]kindSpec{
	EventCreated:           stored[Created](),
	EventImported:          stored[Imported](),
	EventEdited:            stored[Edited](),
	EventStatusChanged:     stored[StatusChanged](),
	EventClaimed:           stored[Claimed](),
	EventSkipChanged:       stored[SkipChanged](),
	EventPriorityChanged:   stored[PriorityChanged](),
	EventReordered:         stored[Reordered](),
	EventAttachmentAdded:   stored[AttachmentAdded](),
	EventAttachmentRemoved: stored[AttachmentRemoved](),
	EventStopRequested:     stored[StopRequested](),
	EventPromptInjected:    stored[PromptInjected](),
	EventQuestionsAsked:    stored[QuestionsAsked](),
	EventAnswered:          stored[Answered](),
	EventRecovered:         stored[Recovered](),
	EventExported:          stored[Exported](),
	EventStepStarted:       stored[StepStarted](),
	EventStepFinished:      stored[StepFinished](),
	EventVerdict:           stored[VerdictGiven](),
	EventRetryScheduled:    stored[RetryScheduled](),
	EventPlannerAsked:      stored[PlannerAsked](),
	EventPlannerAnswered:   stored[PlannerAnswered](),
	EventInjectionApplied:  stored[InjectionApplied](),
	EventStrayReverted:     stored[StrayReverted](),
	EventOutcomeDecided:    stored[OutcomeDecided](),
	EventVerification:      stored[VerifyRun](),
	EventMergeQueue:        stored[MergeQueued](),
	EventNote:              live[Note](),
	EventText:              live[AgentText](),
	EventToolCall:          live[ToolCall](),
	EventToolResult:        live[ToolResult](),
	EventToolRetry:         live[ToolRetry](),
	EventQuestion:          live[AgentQuestion](),
	EventUsage:             live[UsageReport](),
	EventAccepted:          stored[Accepted](),
	EventAcceptUndone:      stored[AcceptUndone](),
	EventRejected:          stored[Rejected](),
	EventChangesRequested:  stored[ChangesRequested](),
	EventAcceptReconciled:  stored[AcceptReconciled](),
}

// EventKinds lists every declared kind.
func EventKinds() []EventKind {
	out := make([]EventKind, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	return out
}

// Known reports whether k is one of the kinds above.
func (k EventKind) Known() bool {
	_, ok := kinds[k]
	return ok
}

// Stored reports whether events of kind k belong in a task's history.
func (k EventKind) Stored() bool { return kinds[k].stored }

// CheckStored returns an error wrapping ErrInvalid unless d is a payload of
// a stored kind: what the store accepts.
func CheckStored(d EventData) error {
	switch {
	case d == nil:
		return invalid("event without a payload")
	case !d.Kind().Known():
		return invalid("unknown event kind %q", d.Kind())
	case !d.Kind().Stored():
		return invalid("event kind %q is live only, not stored", d.Kind())
	}
	if _, ok := d.(Unknown); ok {
		return invalid("event %q has an undecoded payload", d.Kind())
	}
	return nil
}

// DecodeEvent returns the payload of a stored event of kind k. A kind this
// package does not know, or a payload that does not decode as its kind's,
// gives an Unknown holding the raw payload: history written by another
// version is always readable.
func DecodeEvent(k EventKind, raw []byte) EventData {
	spec, ok := kinds[k]
	if !ok {
		return Unknown{Name: k, Raw: append(json.RawMessage(nil), raw...)}
	}
	d, err := spec.decode(raw)
	if err != nil {
		return Unknown{Name: k, Raw: append(json.RawMessage(nil), raw...)}
	}
	return d
}

// Unknown is the payload of a stored event this version cannot read: an
// unknown kind, or a payload that does not fit its kind. Raw is the payload
// as stored, and is what it marshals to.
type Unknown struct {
	Name EventKind
	Raw  json.RawMessage
}

// Kind returns the stored kind.
func (u Unknown) Kind() EventKind { return u.Name }

// MarshalJSON returns the stored payload (null when empty).
func (u Unknown) MarshalJSON() ([]byte, error) {
	if len(u.Raw) == 0 || !json.Valid(u.Raw) {
		return []byte("null"), nil
	}
	return u.Raw, nil
}

// TextMapper is implemented by the payloads that carry free text (agent
// output, log notes, answers, error texts): MapText returns a copy with f
// applied to each such field. The pipeline scrubs secrets through it; the
// live feed bounds the length.
type TextMapper interface {
	MapText(f func(string) string) EventData
}

// MapText applies f to the free text of d (d itself when it has none).
func MapText(d EventData, f func(string) string) EventData {
	if m, ok := d.(TextMapper); ok {
		return m.MapText(f)
	}
	return d
}
