package shell

import (
	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/mergequeue"
)

// mergeQueueServices builds the bound merge queue and verify services.
// The queue this process drives (it holds the runner lock) is the one the
// service edits, and each change it makes (an entry landed or parked)
// tells the window (queue:changed); when another process drives the
// queue, the service edits the same store through a queue of its own and
// the window's watch of the store picks up the other process's changes.
func mergeQueueServices(a *App, svc *host.Services, wake func()) (*app.MergeQueueService, *app.VerifyService) {
	var q *mergequeue.Queue
	if hq, ok := a.queue.(hostQueue); ok {
		q = hq.h.Queue
	} else {
		q = svc.MergeQueue(a.settingsNow)
	}
	emit := a.emit
	q.OnChange = func() { emit.Emit(app.EventQueueChanged) }
	mq := app.NewMergeQueueService(q, a.store, a.emit, a.context, wake)
	vs := app.NewVerifyService(svc.Git, a.store, a.emit, a.context, func() string { return a.settingsNow().WorkDir() })
	return mq, vs
}
