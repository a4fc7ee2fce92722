package shell

import (
	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/mergequeue"
	"github.com/boof-runner/boof-runner/backend/review"
)

// mergeQueueServices builds the bound merge queue and verify services.
// The queue this process drives (it holds the runner lock) is the one the
// service edits, and each change it makes (an entry landed or parked)
// tells the window (queue:changed); when another process drives the
// queue, the service edits the same store through a queue of its own and
// the window's watch of the store picks up the other process's changes.
func mergeQueueServices(a *App, paths dataroot.Paths, g *gitx.Git, rev *review.Service, wake func()) (*app.MergeQueueService, *app.VerifyService) {
	var q *mergequeue.Queue
	if hq, ok := a.queue.(hostQueue); ok {
		q = hq.h.Queue
	} else {
		q = host.MergeQueue(paths, a.store, rev, g, a.settingsNow)
	}
	emit := a.emit
	q.OnChange = func() { emit.Emit(app.EventQueueChanged) }
	mq := app.NewMergeQueueService(q, a.store, a.emit, a.context, wake)
	vs := app.NewVerifyService(g, a.store, a.emit, a.context, func() string { return a.settingsNow().WorkDir() })
	return mq, vs
}
