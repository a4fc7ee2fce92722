package usererr

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

func describeNotFound(err error) (string, Code, bool) {
	var nf *store.NotFoundError
	switch {
	case errors.As(err, &nf):
		return fmt.Sprintf("%s %q does not exist", nf.What, nf.ID), NotFound, true
	case errors.Is(err, store.ErrNotFound):
		return "It no longer exists", NotFound, true
	}
	return "", "", false
}

func describeStatus(err error) (string, Code, bool) {
	var te *task.TransitionError
	if errors.As(err, &te) {
		return transitionMessage(te.From, te.To), IllegalTransition, true
	}
	var se *store.StatusError
	if errors.As(err, &se) {
		return statusMessage(se), WrongStatus, true
	}
	var np *store.NotPausedError
	if errors.As(err, &np) {
		return fmt.Sprintf("The tool %s is not paused", np.Tool), WrongStatus, true
	}
	var ce *store.ClaimConflictError
	if errors.As(err, &ce) {
		if ce.Skipped {
			return "This task is marked skip, so the queue leaves it alone", WrongStatus, true
		}
		return thisTask(ce.Status) + " and no longer waits in the queue", WrongStatus, true
	}
	return "", "", false
}

// transitionMessage says why a task in from cannot become to.
func transitionMessage(from, to task.Status) string {
	if from == to && from == task.StatusFailed {
		return "This task has already failed"
	}
	if from == to {
		return "This task is already " + adjective(from)
	}
	if v, ok := stopBeforeBecoming[to]; ok && from == task.StatusOngoing {
		return "This task is ongoing: stop it before you " + v
	}
	return thisTask(from) + " and cannot become " + adjective(to)
}

// statusMessage says why an operation is refused in the task's status.
func statusMessage(e *store.StatusError) string {
	if v, ok := stopBefore[e.Op]; ok && e.Status == task.StatusOngoing && !slices.Contains(e.Allowed, task.StatusOngoing) {
		return "This task is ongoing: stop it before you " + v
	}
	if e.Op == "answer" {
		return thisTask(e.Status) + " and has no questions to answer"
	}
	names := make([]string, len(e.Allowed))
	for i, s := range e.Allowed {
		names[i] = listName(s)
	}
	if p, ok := canBe[e.Op]; ok {
		return fmt.Sprintf("%s: only %s tasks can %s", thisTask(e.Status), list(names, "or"), p)
	}
	return fmt.Sprintf("%s: only %s tasks allow that", thisTask(e.Status), list(names, "or"))
}

// stopBefore completes "stop it before you …" per store operation refused
// on an ongoing task.
var stopBefore = map[string]string{
	"edit": "edit it", "delete": "delete it", "retry": "retry it", "attach to": "attach files to it",
	"reorder": "reorder it",
}

// stopBeforeBecoming completes "stop it before you …" per status an
// ongoing task cannot take.
var stopBeforeBecoming = map[task.Status]string{
	task.StatusArchived: "archive it", task.StatusAccepted: "accept it", task.StatusRejected: "reject it",
	task.StatusDraft: "make it a draft",
}

// canBe completes "only <statuses> tasks can …" per store operation.
var canBe = map[string]string{
	"edit": "be edited", "delete": "be deleted", "retry": "be retried", "unarchive": "be unarchived",
	"stop": "be stopped", "inject into": "take injected prompts", "attach to": "take attachments",
	"reorder": "be reordered", "ask questions on": "get questions",
}

// thisTask starts a sentence about a task in s: "This task is done".
func thisTask(s task.Status) string {
	switch s {
	case task.StatusFailed:
		return "This task has failed"
	case task.StatusStopped, task.StatusAccepted, task.StatusRejected:
		return "This task was " + string(s)
	}
	return "This task is " + adjective(s)
}

// adjective completes "the task is …" for s.
func adjective(s task.Status) string {
	switch s {
	case task.StatusDraft:
		return "a draft"
	case task.StatusActions:
		return "waiting for your answers"
	}
	return string(s)
}

// listName names s before "tasks": "only draft or pending tasks".
func listName(s task.Status) string {
	if s == task.StatusActions {
		return "waiting"
	}
	return string(s)
}

// list joins "a", "a or b", "a, b or c".
func list(items []string, conj string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}
