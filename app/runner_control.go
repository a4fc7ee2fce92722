package app

import (
	"context"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// RunnerControl is this process's hold on the data root's queue, as the
// services use it. LocalRunner is the queue run by this process's loop;
// LockedRunner is the mode where another process holds the runner lock
// (this window still reads, adds tasks and sends stop and inject controls,
// which the other process picks up from the store, woken by a poke).
type RunnerControl interface {
	// Running returns the ids of the tasks running now.
	Running(ctx context.Context) []string
	// Wake tells the loop that the queue or a setting changed.
	Wake()
	// Lock reports whether this process runs the queue and, when it does
	// not, the message that says which process does.
	Lock() (held bool, message string)
}

// Loop is this process's runner loop as the services need it;
// *runner.Runner has it.
type Loop interface {
	// Running returns the ids of the tasks the loop runs now.
	Running() []string
	// Wake makes the loop look at the queue now.
	Wake()
}

// LocalRunner is the RunnerControl of a process that holds the runner lock
// and runs loop.
func LocalRunner(loop Loop) RunnerControl { return localRunner{loop} }

type localRunner struct{ loop Loop }

func (l localRunner) Running(context.Context) []string { return l.loop.Running() }
func (l localRunner) Wake()                            { l.loop.Wake() }
func (l localRunner) Lock() (bool, string)             { return true, "" }

// TaskLister is the part of the store that lists tasks; *store.Store has it.
type TaskLister interface {
	ListTasks(ctx context.Context, f store.Filter) ([]task.Task, error)
}

// LockedRunner is the RunnerControl of a process that does not hold the
// runner lock: the running tasks are the store's ongoing ones (run by the
// lock holder), Wake calls poke (which rings the holder's wake-up socket;
// nil does nothing, and the holder's poll picks the change up), and
// message says which process holds the lock.
func LockedRunner(st TaskLister, message string, poke func()) RunnerControl {
	if poke == nil {
		poke = func() {}
	}
	return lockedRunner{st: st, msg: message, poke: poke}
}

type lockedRunner struct {
	st   TaskLister
	msg  string
	poke func()
}

// Running lists the store's ongoing tasks; a store error gives none.
func (l lockedRunner) Running(ctx context.Context) []string {
	ts, err := l.st.ListTasks(ctx, store.Filter{Statuses: []task.Status{task.StatusOngoing}})
	if err != nil {
		return nil
	}
	ids := make([]string, 0, len(ts))
	for _, t := range ts {
		ids = append(ids, t.ID)
	}
	return ids
}

func (l lockedRunner) Wake()                { l.poke() }
func (l lockedRunner) Lock() (bool, string) { return false, l.msg }
