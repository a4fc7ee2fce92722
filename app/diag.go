package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
)

// EventUISnapshot asks the front end for a text snapshot of what it shows;
// the payload is the request's sequence number, answered through
// DiagService.Snapshot.
const EventUISnapshot = "ui:snapshot"

// SnapshotFile is the file in the data root where a requested UI snapshot
// is written (see DiagService.ServeProbes).
const SnapshotFile = "ui-snapshot.txt"

// FrontendError is an uncaught error of the front end: a window error or an
// unhandled promise rejection.
type FrontendError struct {
	Kind    string `json:"kind"` // "error" or "unhandledrejection"
	Message string `json:"message"`
	Source  string `json:"source"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Stack   string `json:"stack"`
}

// DiagService carries the front end's own diagnostics to Go: its uncaught
// errors go to the app's log at level ERROR (the test scripts fail on any),
// and on request it answers with a text snapshot of the screen, so a script
// driving the real window can check what a user sees.
type DiagService struct {
	log  *slog.Logger
	emit Emitter
	ctx  func() context.Context

	mu      sync.Mutex
	seq     int
	waiters map[int]chan string
}

// NewDiagService builds the service; ctx supplies the app's lifetime context.
func NewDiagService(log *slog.Logger, emit Emitter, ctx func() context.Context) *DiagService {
	return &DiagService{log: log, emit: emit, ctx: ctx, waiters: map[int]chan string{}}
}

// maxReport bounds each text field of a reported error.
const maxReport = 4000

// ReportError logs an uncaught front-end error at level ERROR. It never fails.
func (d *DiagService) ReportError(e FrontendError) error {
	clip := func(s string) string {
		if len(s) > maxReport {
			return s[:maxReport] + "…"
		}
		return s
	}
	d.log.Error("front end error", "kind", clip(e.Kind), "message", clip(e.Message),
		"source", clip(e.Source), "line", e.Line, "column", e.Column, "stack", clip(e.Stack))
	return nil
}

// Snapshot is the front end's answer to a ui:snapshot request seq: the
// text it shows. An answer nobody waits for any more is dropped.
func (d *DiagService) Snapshot(seq int, text string) error {
	d.mu.Lock()
	ch := d.waiters[seq]
	delete(d.waiters, seq)
	d.mu.Unlock()
	if ch != nil {
		ch <- text
	}
	return nil
}

// ErrNoSnapshot says the front end did not answer a snapshot request in time.
var ErrNoSnapshot = errors.New("the front end did not answer the snapshot request")

// ProbeScreen asks the front end for a snapshot of the screen and waits up
// to timeout for it; errors: ErrNoSnapshot, or ctx's error. (A function, not
// a method: Wails binds every exported method, and only Go calls this.)
func ProbeScreen(ctx context.Context, d *DiagService, timeout time.Duration) (int, string, error) {
	ch := make(chan string, 1)
	d.mu.Lock()
	d.seq++
	seq := d.seq
	d.waiters[seq] = ch
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		delete(d.waiters, seq)
		d.mu.Unlock()
	}()
	d.emit.Emit(EventUISnapshot, seq)
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case text := <-ch:
		return seq, text, nil
	case <-t.C:
		return seq, "", fmt.Errorf("snapshot %d: %w", seq, ErrNoSnapshot)
	case <-ctx.Done():
		return seq, "", ctx.Err()
	}
}

// StartScreenProbes answers SIGUSR2 until ctx ends: each signal takes a
// snapshot and writes it to dir/SnapshotFile (first line "seq N", then the
// text; a failed probe writes "seq N" and "error: ..."), replacing the file
// atomically. The handler is installed before StartScreenProbes returns.
// (SIGUSR1 belongs to WebKit's garbage collector.)
func StartScreenProbes(ctx context.Context, d *DiagService, dir string) {
	sig := make(chan os.Signal, 1)
	notifyProbe(sig)
	go func() {
		defer signal.Stop(sig)
		for {
			select {
			case <-ctx.Done():
				return
			case <-sig:
				seq, text, err := ProbeScreen(ctx, d, 10*time.Second)
				body := text
				if err != nil {
					body = "error: " + err.Error()
				}
				if werr := atomicfile.WriteFile(filepath.Join(dir, SnapshotFile), fmt.Appendf(nil, "seq %d\n%s\n", seq, body), 0o600); werr != nil {
					d.log.Error("write ui snapshot", "err", werr)
				}
			}
		}
	}()
}
