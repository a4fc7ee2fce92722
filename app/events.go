package app

import "github.com/boof-runner/boof-runner/backend/task"

// EventSpec describes one event the Go side emits, for the generated
// TypeScript contract (app/internal/genevents writes
// frontend/src/lib/backend/events.gen.ts from Events).
type EventSpec struct {
	// Key is the event's name in the TypeScript EVENT_NAMES map.
	Key string
	// Name is the event name, or its prefix when PerTask is set.
	Name string
	// PerTask marks an event named Name + a task id.
	PerTask bool
	// Payload is a zero value of the payload's type; nil for none.
	Payload any
	// Doc says when the event is emitted.
	Doc string
}

// Events lists every event the app emits. Add an event here when you add
// its constant: `make test` regenerates the TypeScript side and fails on a
// difference.
var Events = []EventSpec{
	{Key: "tasksChanged", Name: EventTasksChanged, Doc: "Some task changed (this process or another): reload lists."},
	{Key: "commandsChanged", Name: EventCommandsChanged, Doc: "A command template changed."},
	{Key: "settingsChanged", Name: EventSettingsChanged, Doc: "Settings were saved."},
	{Key: "runnerStatus", Name: EventRunnerStatus, Payload: RunnerStatus{}, Doc: "The runner paused or resumed, a step started or ended, or usage moved."},
	{Key: "taskOutput", Name: EventTaskOutputPrefix, PerTask: true, Payload: OutputBatch{}, Doc: "New output of the running task (batched)."},
	{Key: "queueChanged", Name: EventQueueChanged, Doc: "The merge queue changed: an entry added, moved, removed, sent back, landed or parked."},
	{Key: "uiOpen", Name: EventUIOpen, Payload: UIRequest{}, Doc: "The tray, a second launch or a notification click asks the window to show a view."},
	{Key: "pullRequestChanged", Name: EventPullRequestPrefix, PerTask: true, Doc: "That task's pushed branch or pull request changed (a push, an open, a sync that learnt something, a close): reload ForgeService.PullRequest."},
	{Key: "uiSnapshot", Name: EventUISnapshot, Payload: 0, Doc: "Go asks for a text snapshot of the screen; the payload is the request number for DiagService.Snapshot."},
}

// ListSpec is an ordered list of values the front end shows (statuses in
// display order, ...), written beside the event types in the generated
// TypeScript contract so the UI never keeps a copy of its own.
type ListSpec struct {
	// Key is the list's name in TypeScript.
	Key string
	// Values is a slice of a named string type (its constants are the
	// list's element type).
	Values any
	// Doc says what the list holds.
	Doc string
}

// Lists are the value lists the front end needs from the Go side.
var Lists = []ListSpec{
	{Key: "STATUSES", Values: task.Statuses, Doc: "Every task status, in display order."},
	{Key: "ROLES", Values: task.Roles, Doc: "The agent roles, in pipeline order (the verify gate is a step, not an agent role)."},
	{Key: "ACTIVE_QUEUE_STATES", Values: activeQueueStates(), Doc: "The merge-queue states of an entry still in the queue (the tray's count)."},
}

func activeQueueStates() []task.QueueState {
	var out []task.QueueState
	for _, s := range task.QueueStates {
		if s.Active() {
			out = append(out, s)
		}
	}
	return out
}
