package app

import (
	"context"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/procstat"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// RunningInfo describes a running task's current step.
type RunningInfo struct {
	TaskID string    `json:"task_id"`
	Title  string    `json:"title"`
	Role   task.Role `json:"role"`
	Round  int       `json:"round"`
	// Iteration is the pass through the pipeline the step runs in: every
	// run and every fix run takes one, so a fix run's is above Iterations,
	// the planned runs.
	Iteration  int `json:"iteration"`
	Iterations int `json:"iterations"`
	// Fix is the fix run's number among the task's requests for changes
	// (1 = the first) while the run addresses a review; 0 for a planned run.
	Fix           int        `json:"fix,omitempty"`
	StepStartedAt time.Time  `json:"step_started_at"`
	StartedAt     time.Time  `json:"started_at"`
	Tool          string     `json:"tool"`
	Model         string     `json:"model"`
	Usage         task.Usage `json:"usage"`
	// Resources is the memory and CPU of the step's process tree.
	Resources procstat.Stats `json:"resources"`
}

// RunnerStatus is the queue's state. LockHeld is false when another process
// runs this data root's queue (this window can still add tasks and send
// controls); LockMessage then says which.
type RunnerStatus struct {
	Enabled     bool          `json:"enabled"`
	LockHeld    bool          `json:"lock_held"`
	LockMessage string        `json:"lock_message,omitempty"`
	Running     []RunningInfo `json:"running"`
	// Paused lists the tools paused by a usage limit until their reset.
	Paused []PausedTool `json:"paused,omitempty"`
}

// PausedTool is a tool paused by a usage limit, as the window and the tray
// show it: Text is "claude-code paused until 14:05 (usage limit)".
type PausedTool struct {
	Tool  string    `json:"tool"`
	Until time.Time `json:"until"`
	Text  string    `json:"text"`
	// Warning says how the reported reset time was corrected, "" when it was not.
	Warning string `json:"warning,omitempty"`
}

// InjectResult says where an injected prompt went.
type InjectResult struct {
	InjectionID string `json:"injection_id"`
	Delivery    string `json:"delivery"` // live | next_step
	Message     string `json:"message"`
}

// TranscriptPage is a slice of a task's full raw transcript.
type TranscriptPage struct {
	Data   string `json:"data"`
	Offset int64  `json:"offset"`
	Total  int64  `json:"total"`
}

// RunService is the runner and the running task as the UI sees them. Its
// exported methods are the ones the front end calls.
type RunService struct {
	store    *store.Store
	control  RunnerControl
	settings *settings.File
	live     *LiveOutput
	emit     Emitter
	ctx      func() context.Context
}

// NewRunService builds the service over this process's hold on the queue
// (LocalRunner or LockedRunner).
func NewRunService(st *store.Store, rc RunnerControl, sf *settings.File, live *LiveOutput, emit Emitter, ctx func() context.Context) *RunService {
	return &RunService{store: st, control: rc, settings: sf, live: live, emit: emit, ctx: ctx}
}

// enabled reports whether the queue runs (settings.runner.enabled).
func (r *RunService) enabled() bool {
	s, _ := r.settings.Load() // a bad file gives the defaults, as the runner uses
	return s.Runner.Enabled
}

// Status returns the queue's state and what runs now.
func (r *RunService) Status() (RunnerStatus, error) {
	ctx := r.ctx()
	held, msg := r.control.Lock()
	st := RunnerStatus{Enabled: r.enabled(), LockHeld: held, LockMessage: msg, Running: []RunningInfo{}}
	for _, id := range r.control.Running(ctx) {
		t, err := r.store.GetTask(ctx, id)
		if err != nil {
			continue
		}
		info := RunningInfo{TaskID: id, Title: t.DisplayTitle(), Iterations: t.Runs, Iteration: t.CompletedRuns + 1, Usage: t.Usage}
		if t.StartedAt != nil {
			info.StartedAt = *t.StartedAt
		}
		if t.RunStart.IsFix() {
			info.Fix = t.RunStart.Fix
		}
		if exs, err := r.store.Executions(ctx, id); err == nil && len(exs) > 0 {
			e := exs[len(exs)-1]
			info.Role, info.Round, info.Iteration = e.Role, e.Round, e.Iteration
			info.Tool, info.Model, info.StepStartedAt = e.Tool, e.Model, e.StartedAt
			if e.EndedAt == nil {
				info.Resources = procstat.Tree(ctx, append([]int{e.PID}, e.PIDs...))
			}
		}
		st.Running = append(st.Running, info)
	}
	if ps, err := PausedTools(ctx, r.store, time.Now(), time.Local); err == nil && len(ps) > 0 {
		st.Paused = ps
	}
	return st, nil
}

// ResumeTool ends a tool's usage-limit pause now (the user resumes it
// early); the queue takes its tasks up at once. It returns an error when
// the tool is not paused.
func (r *RunService) ResumeTool(tool string) (RunnerStatus, error) {
	if _, err := r.store.ResumeTool(r.ctx(), tool, time.Now()); err != nil {
		return RunnerStatus{}, userError(err)
	}
	r.control.Wake()
	st, err := r.Status()
	if err == nil {
		r.emit.Emit(EventRunnerStatus, st)
	}
	return st, err
}

// SetEnabled pauses or resumes the queue (between tasks).
func (r *RunService) SetEnabled(on bool) (RunnerStatus, error) {
	if _, err := r.settings.Set("runner.enabled", strconv.FormatBool(on)); err != nil {
		return RunnerStatus{}, userError(err)
	}
	r.control.Wake()
	st, err := r.Status()
	if err == nil {
		r.emit.Emit(EventRunnerStatus, st)
	}
	return st, err
}

// Stop durably asks the runner to stop a running task's whole process tree
// (its work is kept); it returns an error when the task is not running.
func (r *RunService) Stop(taskID string) error {
	if err := runner.Stop(r.ctx(), r.store, taskID); err != nil { // refuses a task that is not ongoing
		return userError(err)
	}
	r.control.Wake() // the step's watch acts now, not at its next poll
	r.live.Add(taskID, FeedItem{Data: task.Note{Level: task.LevelInfo, Text: "Stop requested: stopping the step's process tree; the work is kept."}})
	return nil
}

// Inject stores a prompt for a running task; it reaches the live session
// when the tool takes mid-run input, else the next step.
func (r *RunService) Inject(taskID, text string) (InjectResult, error) {
	rep, err := runner.Inject(r.ctx(), r.store, host.MidRunInput, taskID, text)
	if err != nil {
		return InjectResult{}, userError(err)
	}
	r.control.Wake()
	res := InjectResult{InjectionID: strconv.FormatInt(rep.Injection.ID, 10), Delivery: "next_step", Message: rep.Message}
	if rep.Live {
		res.Delivery = "live"
	}
	r.live.Add(taskID, FeedItem{Data: task.PromptInjected{Injection: rep.Injection.ID, Bytes: len(text), Text: text}})
	r.emit.Emit(EventTasksChanged)
	return res, nil
}

// Output returns the buffered live output of a task.
func (r *RunService) Output(taskID string) (OutputSnapshot, error) {
	return r.live.Snapshot(taskID), nil
}

// Transcript returns up to limit bytes of the task's full raw transcript (all
// its steps, in order) from offset, with invalid UTF-8 replaced.
func (r *RunService) Transcript(taskID string, offset, limit int64) (TranscriptPage, error) {
	if limit <= 0 || limit > 4<<20 {
		limit = 4 << 20
	}
	exs, err := r.store.Executions(r.ctx(), taskID)
	if err != nil {
		return TranscriptPage{}, userError(err)
	}
	var page TranscriptPage
	page.Offset = offset
	var buf strings.Builder
	pos := int64(0)
	for _, e := range exs {
		if e.TranscriptPath == "" {
			continue
		}
		fi, err := os.Stat(e.TranscriptPath)
		if err != nil {
			continue
		}
		size := fi.Size()
		if want := limit - int64(buf.Len()); want > 0 && offset < pos+size {
			if err := readRange(&buf, e.TranscriptPath, max(0, offset-pos), want); err != nil {
				return TranscriptPage{}, userError(err)
			}
		}
		pos += size
	}
	page.Total = pos
	page.Data = r.live.scrub(strings.ToValidUTF8(buf.String(), "\uFFFD"))
	return page, nil
}

func readRange(w io.Writer, path string, from, n int64) error {
	f, err := userfile.OpenKept(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return err
	}
	_, err = io.CopyN(w, f, n)
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
