package kubernetes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/boof-runner/boof-runner/backend/executor/wire"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// announcedOnly are the stored kinds the pod's pipeline hands to its hooks
// without storing them itself (its store call wrote them): here our own
// store calls write them (the decision) or the run has none (a limit's
// release).
var announcedOnly = map[task.EventKind]bool{task.EventOutcomeDecided: true, task.EventLimitReached: true}

// apply applies one record: durable ones to the store (once, whatever
// replays), then to the hooks; output to the transcript and the live
// terminal.
func (f *follower) apply(ctx context.Context, r wire.Record) error {
	switch r.Kind {
	case wire.KindEvent:
		return f.event(ctx, r)
	case wire.KindLog:
		desk, applied, err := f.p.o.Store.ApplyRemote(ctx, f.t.ID, store.RemoteRecord{Seq: r.Seq, Exec: r.Exec,
			Log: &task.LogLine{Level: r.Level, Text: r.Text}})
		if err != nil {
			return err
		}
		if applied {
			if h := f.p.o.Hooks.OnLog; h != nil {
				h(f.t.ID, desk, r.Level, r.Text)
			}
		}
	case wire.KindOutput:
		if r.Seq <= f.seen {
			return nil
		}
		desk := f.execs[r.Exec]
		f.transcript(ctx, desk, r.Output)
		if h := f.p.o.Hooks.OnOutput; h != nil {
			h(f.t.ID, desk, r.Output)
		}
	case wire.KindCheckpoint:
		if r.Checkpoint == nil {
			return &mismatchError{msg: "a checkpoint record without its checkpoint"}
		}
		return f.checkpoint(ctx, r.Seq, *r.Checkpoint)
	case wire.KindFinal:
		if r.Final == nil {
			return &mismatchError{msg: "a final record without its outcome"}
		}
		f.final = r.Final
	case wire.KindFail:
		f.fail = r.Text
	default:
		return &mismatchError{msg: fmt.Sprintf("a record of the unknown kind %q", r.Kind)}
	}
	return nil
}

// event applies one event record: a stored kind to the store (a step's
// start opens our execution, its end closes it, an applied injection is
// applied here), every kind to OnEvent with our execution ids.
func (f *follower) event(ctx context.Context, r wire.Record) error {
	if r.Event == nil {
		return &mismatchError{msg: "an event record without its event"}
	}
	e := r.Event.Decode(f.t.ID)
	if _, unknown := e.Data.(task.Unknown); unknown {
		return &mismatchError{msg: fmt.Sprintf("an event of a kind this version does not know (%s): run an image of the desktop's version", r.Event.Kind)}
	}
	kind := e.Kind()
	if announcedOnly[kind] {
		return nil
	}
	desk := f.execs[r.Exec]
	if kind.Stored() {
		rec := store.RemoteRecord{Seq: r.Seq, Exec: r.Exec, Event: e.Data}
		switch d := e.Data.(type) {
		case task.StepStarted:
			rec.Step = &task.Execution{ID: d.Execution, Role: d.Role, Iteration: d.Iteration, Round: d.Round, Attempt: d.Attempt,
				Tool: d.Tool, Model: d.Model, TranscriptPath: f.p.TranscriptPath(f.t.ID, d.Iteration, stepName(d.StepAttempt), d.Attempt)}
		case task.StepFinished:
			rec.Exec = d.Execution
			rec.StepEnd = &d
		case task.InjectionApplied:
			rec.Injection = &d
		}
		var applied bool
		var err error
		desk, applied, err = f.p.o.Store.ApplyRemote(ctx, f.t.ID, rec)
		if err != nil {
			return err
		}
		if rec.Step != nil {
			f.execs[rec.Step.ID] = desk
		}
		if rec.StepEnd != nil {
			f.closeTranscript(desk)
		}
		if !applied {
			return nil // shown before a restart
		}
		e.Data = withExecution(e.Data, desk)
	} else if r.Seq <= f.seen {
		return nil
	}
	if h := f.p.o.Hooks.OnEvent; h != nil {
		h(f.t.ID, desk, e)
	}
	return nil
}

// stepName is the step's name in transcripts ("developer", "reviewer-2").
func stepName(a task.StepAttempt) string {
	if a.Step != "" {
		return a.Step
	}
	return string(a.Role)
}

// withExecution returns d with the step events' execution id set to id.
func withExecution(d task.EventData, id int64) task.EventData {
	switch v := d.(type) {
	case task.StepStarted:
		v.Execution = id
		return v
	case task.StepFinished:
		v.Execution = id
		return v
	}
	return d
}

// transcript appends a step's output to its transcript file, where a local
// step's would be.
func (f *follower) transcript(ctx context.Context, desk int64, chunk []byte) {
	if desk == 0 {
		return
	}
	fl, ok := f.files[desk]
	if !ok {
		path := f.transcriptPath(ctx, desk)
		if path == "" {
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return
		}
		var err error
		if fl, err = os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600); err != nil {
			f.p.o.Logger.Warn("executor: transcript", "task", f.t.ID, "err", err)
			return
		}
		f.files[desk] = fl
	}
	_, _ = fl.Write(chunk)
}

// transcriptPath is the recorded transcript path of our execution desk.
func (f *follower) transcriptPath(ctx context.Context, desk int64) string {
	execs, err := f.p.o.Store.Executions(ctx, f.t.ID)
	if err != nil {
		return ""
	}
	for _, e := range execs {
		if e.ID == desk {
			return e.TranscriptPath
		}
	}
	return ""
}

func (f *follower) closeTranscript(desk int64) {
	if fl, ok := f.files[desk]; ok {
		fl.Close()
		delete(f.files, desk)
	}
}
