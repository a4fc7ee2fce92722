package app

import (
	"sync"

	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/task"
)

// PipelineHooks turns the pipeline's typed events into the UI's feed and its
// raw output into the terminal buffer; a step starting or ending also emits
// a tasks:changed hint and calls stepped (the shell's status watcher then
// emits runner:status; nil means nothing to call). stepped must not block.
// The feed is built from the event values alone: the log's wording plays no
// part in it.
func PipelineHooks(live *LiveOutput, emit Emitter, stepped func()) pipeline.Hooks {
	notify := func() {
		emit.Emit(EventTasksChanged)
		if stepped != nil {
			stepped()
		}
	}
	roles := &execRoles{}
	return pipeline.Hooks{
		OnOutput: func(taskID string, _ int64, chunk []byte) { live.Write(taskID, chunk) },
		OnEvent: func(taskID string, execID int64, e task.Event) {
			switch d := e.Data.(type) {
			case task.UsageReport:
				return // the usage is in the runner status
			case task.StepStarted:
				roles.set(d.Execution, d.Role)
				live.Add(taskID, FeedItem{Role: d.Role, Data: d})
				notify()
				return
			case task.StepFinished:
				roles.drop(d.Execution)
				live.Add(taskID, FeedItem{Role: d.Role, Data: d})
				notify()
				return
			}
			live.Add(taskID, FeedItem{Role: feedRole(roles.get(execID), e.Data), Data: e.Data})
		},
	}
}

// feedRole is the role a feed item is shown under: the one its payload
// names, else that of the running step it came from ("" for the run).
func feedRole(step task.Role, d task.EventData) task.Role {
	switch d := d.(type) {
	case task.VerdictGiven:
		return d.Role
	case task.RetryScheduled:
		return d.Role
	case task.PlannerAsked:
		return d.Role
	case task.PlannerAnswered:
		return task.RolePlanner
	}
	return step
}

// execRoles remembers the role of each running execution for the feed.
type execRoles struct {
	mu sync.Mutex
	m  map[int64]task.Role
}

func (r *execRoles) set(id int64, role task.Role) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[int64]task.Role{}
	}
	r.m[id] = role
}

func (r *execRoles) get(id int64) task.Role {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[id]
}

func (r *execRoles) drop(id int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, id)
}
