package kubernetes

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/executor/wire"
	"github.com/boof-runner/boof-runner/backend/pipeline"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// follower follows one task's run in the cluster: it applies the pod's
// records as they come, forwards the user's controls, and records the
// outcome.
type follower struct {
	p    *Pipeline
	t    task.Task
	rr   store.RemoteRun
	repo string
	// seen is the last record applied when following began: live records
	// (output) at or below it were shown before a restart.
	seen int64
	// execs maps the pod's executions to ours; files are the transcripts
	// of ours being written.
	execs map[int64]int64
	files map[int64]*os.File
	// final, fail and mismatch are how the run ended, as the records say;
	// end and lost how exec-remote saw it end.
	final    *wire.Final
	fail     string
	mismatch string
	end      *wire.Status
	lost     *wire.Status
	records  int
	// phase is the pod's last phase logged.
	phase string

	mu   sync.Mutex
	sent map[int64]bool // injections handed to the pod
}

func (p *Pipeline) newFollower(t task.Task, rr store.RemoteRun) *follower {
	f := &follower{p: p, t: t, rr: rr, seen: rr.LastSeq, execs: map[int64]int64{}, files: map[int64]*os.File{}, sent: map[int64]bool{}}
	for pod, desk := range rr.Execs {
		f.execs[pod] = desk
	}
	f.repo = t.Repo
	if f.repo == "" {
		f.repo = p.o.Settings().WorkDir()
	}
	return f
}

// follow runs exec-remote for spec to its end, applying what it reports,
// and records the outcome. When ctx ends first (the app closes) the task
// stays ongoing and its Job goes on: the next start follows it.
func (f *follower) follow(ctx context.Context, spec wire.Spec) (pipeline.Result, error) {
	defer f.closeFiles()
	defer f.p.serve.remove(spec.BundleURL)
	rp, err := f.p.launch(ctx, spec)
	if err != nil {
		return f.endWithout(ctx, task.StatusFailed, "Could not reach the cluster: "+err.Error()+" (install "+KubeBinName+" beside boof-runner)", false)
	}
	cctx, stopControls := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f.controls(cctx, rp)
	}()
	for s := range rp.statuses {
		f.status(ctx, rp, s)
		if s.Kind == wire.StatusEnd {
			break // exec-remote waits for the cleanup, once the outcome is recorded
		}
	}
	stopControls()
	wg.Wait()
	if ctx.Err() != nil {
		_ = rp.wait()
		f.log(context.WithoutCancel(ctx), 0, task.LevelInfo, "The app closed while the task ran in the cluster; its Job goes on and the next start follows it")
		return pipeline.Result{Status: task.StatusOngoing, Iteration: f.rr.Iteration}, nil
	}
	if f.end == nil && f.lost == nil && f.final == nil && f.fail == "" {
		werr := rp.wait()
		msg := "exec-remote ended without a word"
		if werr != nil {
			msg = fmt.Sprintf("exec-remote ended: %v", werr)
		}
		if tail := rp.stderr.String(); tail != "" {
			msg += ": " + clip(tail, 300)
		}
		f.lost = &wire.Status{Kind: wire.StatusError, Class: wire.ErrorOther, Message: msg}
	}
	res, err := f.conclude(ctx)
	if err == nil && f.end != nil {
		_ = rp.send(wire.Command{Op: "cleanup"}) // recorded: the Job may go
	}
	_ = rp.wait()
	return res, err
}

// status handles one line of exec-remote.
func (f *follower) status(ctx context.Context, rp *remoteProc, s wire.Status) {
	switch s.Kind {
	case wire.StatusLine:
		if f.final != nil || f.fail != "" || f.mismatch != "" {
			return // nothing after the end, and nothing once a result did not match
		}
		f.line(ctx, rp, s.Line)
	case wire.StatusPhase:
		text := "Pod " + s.Pod + ": " + s.Phase
		if s.Reason != "" {
			text += " (" + s.Reason + ")"
		}
		if text != f.phase {
			f.phase = text
			f.log(ctx, 0, task.LevelInfo, text)
		}
	case wire.StatusInjected:
		if s.Message != "" {
			f.mu.Lock()
			delete(f.sent, s.ID) // handed again at the next look
			f.mu.Unlock()
			f.log(ctx, 0, task.LevelWarn, "The injected prompt did not reach the pod yet: "+s.Message)
		}
	case wire.StatusEnd:
		f.end = &s
	case wire.StatusError:
		f.lost = &s
	}
}

// line applies one line of the pod's log.
func (f *follower) line(ctx context.Context, rp *remoteProc, line string) {
	r, err := wire.Parse([]byte(line))
	if errors.Is(err, wire.ErrNotRecord) {
		return // the runtime's or a shell's line, not the task's
	}
	if err != nil {
		f.mismatch = "a line of its log is not a record: " + err.Error()
		_ = rp.send(wire.Command{Op: "stop"})
		return
	}
	f.records++
	if err := f.apply(ctx, r); err != nil {
		var mm *mismatchError
		if errors.As(err, &mm) {
			f.mismatch = mm.msg
			_ = rp.send(wire.Command{Op: "stop"})
			return
		}
		f.p.o.Logger.Warn("executor: a record of the cluster run was not applied", "task", f.t.ID, "seq", r.Seq, "err", err)
	}
}

// controls forwards the user's stop and injected prompts to the pod until
// ctx ends: at each wake-up and at least every ControlPoll.
func (f *follower) controls(ctx context.Context, rp *remoteProc) {
	tick := time.NewTicker(f.p.o.ControlPoll)
	defer tick.Stop()
	for {
		st := f.p.o.Store
		if stop, err := st.StopRequested(ctx, f.t.ID); err == nil && stop && !f.rr.StopSent {
			if rp.send(wire.Command{Op: "stop"}) == nil {
				f.rr.StopSent = true
				_ = st.MarkRemoteStop(ctx, f.t.ID)
				f.log(ctx, 0, task.LevelInfo, "Stop requested: deleting the task's Job; the pod hands its work back first")
			}
		}
		if injs, err := st.PendingInjections(ctx, f.t.ID); err == nil {
			for _, inj := range injs {
				f.mu.Lock()
				sent := f.sent[inj.ID]
				f.sent[inj.ID] = true
				f.mu.Unlock()
				if !sent {
					_ = rp.send(wire.Command{Op: "inject", Inject: &wire.InjectRequest{ID: inj.ID, Text: inj.Text}})
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-f.p.o.Wake():
		case <-tick.C:
		}
	}
}

// log writes a line of ours (not the pod's) to the task's log.
func (f *follower) log(ctx context.Context, execID int64, level task.LogLevel, text string) {
	if err := f.p.o.Store.AppendLog(ctx, f.t.ID, execID, level, text); err != nil {
		f.p.o.Logger.Warn("executor: cannot store log line", "task", f.t.ID, "err", err)
	}
	if h := f.p.o.Hooks.OnLog; h != nil {
		h(f.t.ID, execID, level, text)
	}
	if h := f.p.o.Hooks.OnEvent; h != nil {
		h(f.t.ID, execID, task.Event{TaskID: f.t.ID, At: time.Now().UTC(), Data: task.Note{Level: level, Text: text}})
	}
}

func (f *follower) closeFiles() {
	for id, fl := range f.files {
		fl.Close()
		delete(f.files, id)
	}
}

// mismatchError is a result that does not match the task.
type mismatchError struct{ msg string }

func (e *mismatchError) Error() string { return e.msg }
