package cli

import (
	"context"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/runner"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// waitingFor is a pending task's wait for a tool paused by a usage limit
// ("waiting_for" in list --json and show --json).
type waitingFor struct {
	// Tool is the paused tool the task's next step needs.
	Tool string `json:"tool"`
	// Until is when the tool may run again.
	Until time.Time `json:"until"`
	// Reason is what paused it ("usage limit").
	Reason string `json:"reason"`
}

// listedTask is a task of list --json: the task and why it waits.
type listedTask struct {
	task.Task
	WaitingFor *waitingFor `json:"waiting_for,omitempty"`
}

// queueWaits knows why pending tasks wait: the tools paused now and the
// tasks whose next step needs one, by the runner's own claim filter.
type queueWaits struct {
	now    time.Time
	tools  map[string]string
	pauses map[string]task.ToolPause
}

// waits reads which pending tasks of the data root wait for a paused tool,
// with the settings the runner would use (the defaults when the file is
// broken: the runner then starts nothing anyway).
func waits(ctx context.Context, s *store.Store, paths dataroot.Paths) (*queueWaits, error) {
	w := &queueWaits{now: time.Now(), pauses: map[string]task.ToolPause{}}
	set, _ := host.SettingsFile(paths).Load()
	p, err := runner.PickFor(ctx, s, set, w.now, host.SwitchTarget(func() settings.Settings { return set }))
	if err != nil {
		return nil, err
	}
	if w.tools, err = s.WaitingFor(ctx, p); err != nil {
		return nil, err
	}
	ps, err := s.ToolPauses(ctx, w.now)
	if err != nil {
		return nil, err
	}
	for _, tp := range ps {
		w.pauses[tp.Tool] = tp
	}
	return w, nil
}

// of returns t's wait for a paused tool, nil when it waits for none.
func (w *queueWaits) of(t task.Task) *waitingFor {
	tool, ok := w.tools[t.ID]
	if !ok || t.Status != task.StatusPending {
		return nil
	}
	tp := w.pauses[tool]
	reason := tp.Reason
	if reason == "" {
		reason = "usage limit"
	}
	return &waitingFor{Tool: tool, Until: tp.Until, Reason: reason}
}

// status says t's status and, for a task the queue does not start yet,
// why: "pending, waiting for claude-code paused until 14:05 (usage
// limit)" (the window's runner badge's words), "pending, not before
// 2026-12-05 10:16", ", skipped", "(was done)".
func (w *queueWaits) status(t task.Task) string {
	s := string(t.Status)
	if t.PrevStatus != "" {
		s += " (was " + string(t.PrevStatus) + ")"
	}
	if t.Skip {
		s += ", skipped"
	}
	if t.Status != task.StatusPending {
		return s
	}
	if t.NotBefore != nil && t.NotBefore.After(w.now) {
		s += ", not before " + atText(*t.NotBefore, false)
	}
	if tool, ok := w.tools[t.ID]; ok {
		tp := w.pauses[tool]
		tp.Tool = tool
		s += ", waiting for " + tp.Describe(w.now, time.Local)
	}
	return s
}
