package shell

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/boof-runner/boof-runner/app"
	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/usererr"
	"github.com/boof-runner/boof-runner/backend/wake"
)

// This file is the shell's one use of the runner host: opening it and the
// two ways this process can hold a data root's queue. Either way the
// backend services come from the host (host.Services), built once.

// queue is this process's hold on the data root's queue: hostQueue runs it
// here, lockedQueue is the mode where another process holds the runner lock.
type queue interface {
	// control is the queue as the bound services use it.
	control() app.RunnerControl
	// services are the data root's backend services: the host's when
	// this process runs the queue, else built by host.NewServices.
	services() *host.Services
	// tools lists the agent tools (for the Settings screen's health checks).
	tools() []agent.Tool
	// run runs the queue until ctx ends; it returns at once when another
	// process runs the queue.
	run(ctx context.Context) error
	// woken returns the channel the next wake-up of the queue closes (a
	// poke of its wake-up socket by another process), nil when another
	// process runs the queue.
	woken() func() <-chan struct{}
	// close stops every process still running and releases the lock; call
	// it after run returned.
	close() error
}

// queueOptions are what openQueue needs.
type queueOptions struct {
	// ctx bounds the host's start-up work.
	ctx   context.Context
	paths dataroot.Paths
	store *store.Store
	exe   string
	hooks pipeline.Hooks
	log   *slog.Logger
	// changed is told when a task starts or ends in this process's queue.
	changed func()
}

// openQueue takes the data root's runner lock and wires its queue. When
// another process holds the lock, the queue only reads the store (the
// message is logged and shown in the UI); any other error is returned.
func openQueue(o queueOptions) (queue, error) {
	ho := host.Options{
		Paths: o.paths, Store: o.store, Exe: o.exe, Logger: o.log, Hooks: o.hooks,
		OnRunningChanged: o.changed,
	}
	h, err := host.Open(o.ctx, ho)
	var locked *runner.LockedError
	switch {
	case errors.As(err, &locked):
		o.log.Warn("runner", "err", err)
		q := lockedQueue{
			ctl: app.LockedRunner(o.store, lockMessage(err), func() { _ = wake.Poke(o.paths.WakeSocket()) }),
			svc: host.NewServices(ho),
			sig: &wake.Signal{},
		}
		// What the process that runs the queue commits reaches this
		// window at once: a watch of the database's files wakes the
		// window's watch of the store (its poll stays the fallback).
		db := filepath.Base(o.paths.Database())
		q.files, err = wake.WatchFiles(filepath.Dir(o.paths.Database()), []string{db, db + "-wal"}, fileWatchGap, q.sig.Fire)
		if err != nil {
			o.log.Warn("window: other processes' changes arrive through the poll only", "err", err)
		}
		return q, nil
	case err != nil:
		return nil, err
	}
	return hostQueue{h}, nil
}

// hostQueue is the queue run by this process.
type hostQueue struct{ h *host.Host }

func (q hostQueue) control() app.RunnerControl    { return app.LocalRunner(q.h.Runner) }
func (q hostQueue) services() *host.Services      { return q.h.Services }
func (q hostQueue) close() error                  { return q.h.Close() }
func (q hostQueue) woken() func() <-chan struct{} { return q.h.Woken }

func (q hostQueue) run(ctx context.Context) error { return q.h.Run(ctx, runner.Forever) }

func (q hostQueue) tools() []agent.Tool {
	var ts []agent.Tool
	for _, n := range q.h.Tools.Names() {
		if t, err := q.h.Tools.Get(n); err == nil {
			ts = append(ts, t)
		}
	}
	return ts
}

// lockedQueue is the queue run by another process.
type lockedQueue struct {
	ctl app.RunnerControl
	svc *host.Services
	// sig is fired by files, the watch of the database's files (nil when
	// the filesystem has none).
	sig   *wake.Signal
	files *wake.FileWatch
}

// fileWatchGap is the shortest time between two wake-ups of the window's
// watch by the database's files (a running task commits often).
const fileWatchGap = 50 * time.Millisecond

func (q lockedQueue) control() app.RunnerControl { return q.ctl }
func (q lockedQueue) services() *host.Services   { return q.svc }
func (q lockedQueue) tools() []agent.Tool        { return nil }
func (q lockedQueue) run(context.Context) error  { return nil }

func (q lockedQueue) close() error {
	if q.files != nil {
		return q.files.Close()
	}
	return nil
}

func (q lockedQueue) woken() func() <-chan struct{} {
	if q.files == nil {
		return nil
	}
	return q.sig.Next
}

// lockMessage is the banner shown while another process runs the queue.
func lockMessage(err error) string {
	msg, _ := usererr.Describe(err)
	return msg
}
