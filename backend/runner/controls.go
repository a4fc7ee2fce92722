package runner

import (
	"context"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/task"
)

// ControlStore is what Stop and Inject need; *store.Store has it.
type ControlStore interface {
	RequestStop(ctx context.Context, taskID string) error
	Inject(ctx context.Context, taskID, text string) (task.Injection, error)
	OpenExecutions(ctx context.Context) ([]task.Execution, error)
	AppendLog(ctx context.Context, taskID string, execID int64, level task.LogLevel, text string) error
}

// Stop durably asks the runner holding the task (in this or another
// process) to stop it; the running step's process tree is ended within the
// grace period and the task becomes stopped. It returns the store's
// *store.StatusError when the task is not ongoing, or ErrNotFound.
func Stop(ctx context.Context, st ControlStore, taskID string) error {
	if err := st.RequestStop(ctx, taskID); err != nil {
		return err
	}
	_ = st.AppendLog(ctx, taskID, 0, task.LevelWarn, "Stop requested")
	return nil
}

// InjectReport says how an injected prompt reaches the task.
type InjectReport struct {
	Injection task.Injection `json:"injection"`
	// Live is true when a step is running with a tool that takes mid-run
	// input: the runner delivers the prompt into that session right away.
	Live bool `json:"live"`
	// Tool is the running step's tool, "" when no step runs.
	Tool string `json:"tool"`
	// Message tells the user which happened.
	Message string `json:"message"`
}

// Inject stores a prompt for a task durably at once, writes it to the live
// log, and reports whether it will be delivered into the running session
// or included in the next step's prompt (it is included in every later
// step's prompt either way); midRun tells whether a tool takes input while
// a step runs (host.MidRunInput). Errors are the store's
// (*store.StatusError, ErrNotFound, task.ErrInvalid for empty or oversized
// text).
func Inject(ctx context.Context, st ControlStore, midRun func(tool string) bool, taskID, text string) (InjectReport, error) {
	inj, err := st.Inject(ctx, taskID, text)
	if err != nil {
		return InjectReport{}, err
	}
	rep := InjectReport{Injection: inj}
	if open, err := st.OpenExecutions(ctx); err == nil {
		for _, x := range open {
			if x.TaskID == taskID {
				rep.Tool = x.Tool
			}
		}
	}
	rep.Live = rep.Tool != "" && midRun != nil && midRun(rep.Tool)
	switch {
	case rep.Live:
		rep.Message = fmt.Sprintf("Injected prompt stored; the running step (%s) takes mid-run input, so it is delivered into the live session now and included in every later step's prompt", rep.Tool)
	case rep.Tool != "":
		rep.Message = fmt.Sprintf("Injected prompt stored; the running step (%s) cannot take mid-run input, so it is included in the next step's prompt and every later one", rep.Tool)
	default:
		rep.Message = "Injected prompt stored; it is included in the next step's prompt and every later one"
	}
	_ = st.AppendLog(ctx, taskID, 0, task.LevelInfo, rep.Message+": "+text)
	return rep, nil
}
