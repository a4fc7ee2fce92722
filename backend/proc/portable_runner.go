//go:build darwin || windows

package proc

import (
	"context"
	"time"
)

// osRunner holds nothing on this OS: each handle owns its tree (a process
// group on macOS, a Job Object on Windows) and nothing is adopted.
type osRunner struct{}

func (r *Runner) initOS() {}

// startBackground has no reaper to start: nothing is adopted on this OS.
func (r *Runner) startBackground(ctx context.Context) {
	go func() {
		<-ctx.Done()
		close(r.bgDone)
	}()
}

// stopOS stops the background goroutine (once, at Shutdown).
func (r *Runner) stopOS(time.Time) {
	r.bgCancel()
	<-r.bgDone
}

// Mechanism says how the Runner keeps track of its children's trees on
// this OS (treeMechanism).
func (r *Runner) Mechanism() string { return treeMechanism }
