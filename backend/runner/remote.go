package runner

import (
	"context"
	"sync"

	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Placer is a Pipeline that runs some tasks elsewhere (a cluster's Jobs,
// backend/executor/kubernetes): those take slots of their own, so
// runner.concurrency counts this machine's tasks only.
type Placer interface {
	// Remote reports whether t runs elsewhere under set.
	Remote(t task.Task, set settings.Settings) bool
	// RemoteSlots is how many tasks run elsewhere at once under set (0:
	// none can run elsewhere: the runner claims such a task anyway and Run
	// ends it saying why).
	RemoteSlots(set settings.Settings) int
}

// Adopter is a Pipeline whose runs outlive this process (a Job goes on
// while the app is closed): recovery leaves the ongoing tasks it adopts to
// it instead of stopping them, and the loop follows each to its end in a
// remote slot.
type Adopter interface {
	// Adopts reports whether the ongoing task t runs elsewhere and can be
	// followed; it must not block on the network.
	Adopts(ctx context.Context, t task.Task) bool
	// Follow follows (or collects) t's run to its end, as Run does.
	Follow(ctx context.Context, t task.Task) (pipeline.Result, error)
}

// isRemote reports whether t runs elsewhere.
func (r *Runner) isRemote(t task.Task, set settings.Settings) bool {
	p, ok := r.o.Pipeline.(Placer)
	return ok && p.Remote(t, set)
}

// clusterless reports whether the tasks that run elsewhere have no slots
// at all (the settings name no cluster). Such a task is claimed anyway, in
// one of this machine's turns, so the pipeline ends it saying why instead
// of leaving it in the queue for a slot that never comes.
func (r *Runner) clusterless(set settings.Settings) bool {
	p, ok := r.o.Pipeline.(Placer)
	return ok && p.RemoteSlots(set) == 0
}

// slotsFull reports whether this machine's slots and the remote ones are
// taken.
func (r *Runner) slotsFull(set settings.Settings) (local, remote bool) {
	r.mu.Lock()
	nl, nr := 0, 0
	for _, rem := range r.running {
		if rem {
			nr++
		} else {
			nl++
		}
	}
	r.mu.Unlock()
	remote = true
	if p, ok := r.o.Pipeline.(Placer); ok {
		remote = nr >= p.RemoteSlots(set)
	}
	return nl >= max(set.Runner.Concurrency, 1), remote
}

// follow runs the adopted tasks' follow-ups in remote slots; each ends like
// a claimed task's run.
func (r *Runner) follow(ctx context.Context, ids []string, wg *sync.WaitGroup, freed chan<- struct{}) {
	ad, ok := r.o.Pipeline.(Adopter)
	if !ok {
		return
	}
	for _, id := range ids {
		t, err := r.o.Store.GetTask(ctx, id)
		if err != nil {
			r.o.Logger.Warn("runner: cannot follow an adopted task", "task", id, "err", err)
			continue
		}
		r.start(ctx, t, true, wg, freed, func() (pipeline.Result, error) { return ad.Follow(ctx, t) })
	}
}
