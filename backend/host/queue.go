package host

import (
	"context"
	"time"
)

// queuePoll is how often the merge queue is looked at while the runner runs.
const queuePoll = 2 * time.Second

// driveQueue runs merge queue passes beside the task loop, outside its
// slots, until ctx ends; a paused runner (runner.enabled false) pauses the
// queue between entries.
func (h *Host) driveQueue(ctx context.Context) {
	tick := time.NewTicker(queuePoll)
	defer tick.Stop()
	for {
		if h.current().Runner.Enabled {
			h.queuePass(ctx)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// queuePass runs one pass and logs what went wrong.
func (h *Host) queuePass(ctx context.Context) {
	if _, err := h.Queue.Pass(ctx); err != nil && ctx.Err() == nil {
		h.log.Warn("merge queue: "+err.Error(), "err", err)
	}
}
