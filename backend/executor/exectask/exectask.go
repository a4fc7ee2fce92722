// Package exectask runs one task's pipeline inside a container
// (`boof-runner exec-task`): it reads the task (JSON) and its base (a git
// bundle), seeds a store of its own with the task, runs the task through
// the same host, runner and pipeline a local run uses, and prints what
// happens as records (package wire) on its stdout, the pod's log: every
// event, log line and byte of output as it happens, the task's refs as a
// bundle with the reports stored so far at each step's start and at the
// end, and the outcome last. A small HTTP endpoint takes the desktop's
// stop and injected prompts; SIGTERM (the Job deleted) is a stop.
package exectask

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/executor/wire"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Input file names inside Options.In.
const (
	// TaskFile holds the wire.Input.
	TaskFile = wire.TaskFile
	// BaseFile holds the base bundle.
	BaseFile = wire.BaseFile
)

// Options configure Run.
type Options struct {
	// In holds TaskFile and BaseFile.
	In string
	// Bundle is the base bundle when it is not In's BaseFile (an init
	// container fetched it).
	Bundle string
	// Work is an empty folder for the repository and the data root.
	Work string
	// Exe is this binary (the mock tool's agent program).
	Exe string
	// Stdout receives the records.
	Stdout io.Writer
	// Listen is the control endpoint's address ("" = none).
	Listen string
	// Logger receives what is not a record (stderr).
	Logger *slog.Logger
}

// Run runs the task of o.In to its end and returns nil once its outcome was
// printed. ctx ending (SIGTERM) stops the task as a user's stop does: the
// pipeline stops its step, and the work so far and the outcome are
// printed before Run returns. A task that cannot start prints a
// wire.KindFail record and returns its error.
func Run(ctx context.Context, o Options) error {
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	w := wire.NewWriter(o.Stdout)
	fail := func(err error) error {
		_ = w.Write(wire.Record{Kind: wire.KindFail, Text: err.Error()})
		return err
	}
	f, err := userfile.OpenKept(filepath.Join(o.In, TaskFile))
	if err != nil {
		return fail(fmt.Errorf("read the task: %w", err))
	}
	in, err := wire.ReadInput(f)
	f.Close()
	if err != nil {
		return fail(err)
	}
	if in.Schema != store.LatestSchema() {
		return fail(fmt.Errorf("the task comes from a store of schema %d and this image's boof-runner has schema %d: run an image of the desktop's version",
			in.Schema, store.LatestSchema()))
	}
	runCtx := context.WithoutCancel(ctx)
	p, err := prepare(runCtx, in, o)
	if err != nil {
		return fail(err)
	}
	defer p.st.Close()
	return p.run(ctx, runCtx, in, o, w)
}

// run opens the host on the prepared data root and runs the task once.
func (p *prepared) run(ctx, runCtx context.Context, in wire.Input, o Options, w *wire.Writer) error {
	cp := newCheckpointer(gitx.New(), p, in, w)
	var decided struct {
		sync.Mutex
		d  store.Decided
		ok bool
	}
	hooks := pipeline.Hooks{
		OnEvent: func(taskID string, execID int64, e task.Event) {
			switch e.Data.(type) {
			case task.StepStarted:
				cp.take(runCtx, false) // the previous step's work, before this step's first record
			case task.OutcomeDecided:
				d, ok, err := p.st.DecidedOutcome(runCtx, taskID)
				decided.Lock()
				decided.d, decided.ok = d, ok && err == nil
				decided.Unlock()
			}
			ev, err := wire.NewEvent(e)
			if err != nil {
				o.Logger.Warn("exec-task: event not sent", "err", err)
				return
			}
			_ = w.Write(wire.Record{Kind: wire.KindEvent, Exec: execID, Event: ev})
		},
		OnLog: func(taskID string, execID int64, level task.LogLevel, text string) {
			if taskID == "" {
				return // the runner's own lines: the pod's, not the task's
			}
			_ = w.Write(wire.Record{Kind: wire.KindLog, Exec: execID, Level: level, Text: text})
		},
		OnOutput: func(_ string, execID int64, chunk []byte) {
			_ = w.Write(wire.Record{Kind: wire.KindOutput, Exec: execID, Output: append([]byte(nil), chunk...)})
		},
	}
	h, err := host.Open(runCtx, host.Options{Paths: p.paths, Store: p.st, Exe: o.Exe, Logger: o.Logger, Hooks: hooks})
	if err != nil {
		return w.Write(wire.Record{Kind: wire.KindFail, Text: "open the runner: " + err.Error()})
	}
	defer h.Close()
	stopCtl, err := serveControl(o.Listen, p.st, in.TaskID, h.Runner.Wake)
	if err != nil {
		return w.Write(wire.Record{Kind: wire.KindFail, Text: err.Error()})
	}
	defer stopCtl()
	// The Job deleted (SIGTERM) is the user's stop: the step ends as a
	// stop does and the outcome is printed before the process exits.
	go func() {
		<-ctx.Done()
		if err := p.st.RequestStop(runCtx, in.TaskID); err == nil {
			h.Runner.Wake()
		}
	}()
	if err := h.Run(runCtx, runner.Once); err != nil {
		o.Logger.Warn("exec-task: runner", "err", err)
	}
	t, err := p.st.GetTask(runCtx, in.TaskID)
	if err != nil {
		return w.Write(wire.Record{Kind: wire.KindFail, Text: "read the task's outcome: " + err.Error()})
	}
	if t.Status == task.StatusPending && t.StartedAt == nil {
		return w.Write(wire.Record{Kind: wire.KindFail, Text: "the pod's runner did not start the task (check the tools its roles name)"})
	}
	decided.Lock()
	d, ok := decided.d, decided.ok
	decided.Unlock()
	p.saveLeftovers(runCtx, cp.g, w, d, ok)
	cp.take(runCtx, true)
	return w.Write(wire.Record{Kind: wire.KindFinal, Final: final(t, d, ok)})
}

// final is the outcome the pod's store recorded.
func final(t task.Task, d store.Decided, decided bool) *wire.Final {
	f := &wire.Final{Status: t.Status, Message: t.Error, Questions: t.Questions,
		Note: store.TransitionNote{Error: t.Error, Branch: t.Branch, BaseSHA: t.BaseSHA, HeadSHA: t.HeadSHA}}
	if decided {
		f.CountRun, f.CountFix = d.CountRun, d.CountFix
		f.Note.Reason = d.Note.Reason
	}
	return f
}

// serveControl starts the control endpoint on addr ("" = none) and returns
// its stop. POST /inject {"id","text"} hands an injected prompt of the
// desktop's to the pipeline under the desktop's id; POST /stop asks for
// the stop; GET /healthz answers ok.
func serveControl(addr string, st *store.Store, taskID string, wake func()) (func(), error) {
	if addr == "" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("control endpoint: %w", err)
	}
	srv := &http.Server{Handler: controlHandler(st, taskID, wake), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Warn("exec-task: control endpoint", "err", err)
		}
	}()
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		<-done
	}, nil
}

// prepared is the pod's repository and data root, ready to run.
type prepared struct {
	repo  string
	paths dataroot.Paths
	st    *store.Store
	// lastSection is the highest section id the desktop already has.
	lastSection int64
}
