package app

// Option configures a service that can queue work (NewReviewService,
// NewSettingsService).
type Option func(*options)

type options struct {
	wake func()
}

// WithWake sets what such a service calls after it queued work or changed
// a setting the runner reads: RunnerControl.Wake (this process's loop, or
// a poke of the runner's wake-up socket when another process runs the
// queue), so the runner acts now instead of at its next poll.
func WithWake(f func()) Option { return func(o *options) { o.wake = f } }

func applyOptions(opts []Option) options {
	o := options{wake: func() {}}
	for _, f := range opts {
		f(&o)
	}
	if o.wake == nil {
		o.wake = func() {}
	}
	return o
}
