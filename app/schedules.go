package app

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/boof-runner/boof-runner/backend/intake"
	"github.com/boof-runner/boof-runner/backend/schedule"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
)

// ScheduleService is the recurring tasks and the tasks scheduled for later,
// as the Schedules screen and the New task form's Repeat option see them.
// It keeps schedules with backend/schedule, as the CLI does; the runner
// loop fires them.
type ScheduleService struct {
	store  *store.Store
	emit   Emitter
	ctx    func() context.Context
	intake *intake.Service
	wake   func()
	now    func() time.Time
}

// ScheduleDeps are the optional collaborators of ScheduleService.
type ScheduleDeps struct {
	// Intake checks and stores schedules as `boof-runner add --every`
	// does (host.Services.Intake); a schedule's tasks run in the working directory
	// of its settings. Nil: one over the store with no settings.
	Intake *intake.Service
	// Wake tells this process's runner loop that a schedule changed.
	Wake func()
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// NewScheduleService builds the service; ctx supplies the app's lifetime
// context.
func NewScheduleService(st *store.Store, emit Emitter, ctx func() context.Context, d ScheduleDeps) *ScheduleService {
	if d.Wake == nil {
		d.Wake = func() {}
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Intake == nil {
		d.Intake = intake.New(intake.Options{Store: st, Now: d.Now})
	}
	return &ScheduleService{store: st, emit: emit, ctx: ctx, intake: d.Intake, wake: d.Wake, now: d.Now}
}

// ScheduleView is a schedule as the Schedules screen lists it.
type ScheduleView struct {
	ID string `json:"id"`
	// Name is the schedule's own name ("" when it has none); Display is
	// what the list shows (the name, else the task's title or prompt).
	Name    string `json:"name"`
	Display string `json:"display"`
	Cron    string `json:"cron"`
	// CronText is the expression in words ("weekdays at 02:00"), "" when
	// it has no short wording.
	CronText string     `json:"cron_text"`
	TZ       string     `json:"tz"`
	Paused   bool       `json:"paused"`
	NextFire *time.Time `json:"next_fire,omitempty"`
	LastFire *time.Time `json:"last_fire,omitempty"`
	// LastTask is the task the last fire queued, nil when none is left.
	LastTask *ScheduledTaskRef `json:"last_task,omitempty"`
	// Template is the task each fire queues.
	Template  task.NewTask `json:"template"`
	CreatedAt time.Time    `json:"created_at"`
}

// ScheduledTaskRef names a task a schedule queued.
type ScheduledTaskRef struct {
	ID     string      `json:"id"`
	Title  string      `json:"title"`
	Status task.Status `json:"status"`
}

// ScheduleInput is the New task form with its Repeat option set.
type ScheduleInput struct {
	// Name is optional; "" shows the task's title or prompt.
	Name string `json:"name"`
	Cron string `json:"cron"`
	// TZ is an IANA time zone ("Europe/Berlin"); "" is UTC.
	TZ   string       `json:"tz"`
	Task NewTaskInput `json:"task"`
}

// CronPreview is a cron expression checked and previewed.
type CronPreview struct {
	Cron string `json:"cron"`
	TZ   string `json:"tz"`
	// Text is the expression in words, "" when it has no short wording.
	Text string `json:"text"`
	// Next are its next fires (at most 3), RFC 3339 in UTC.
	Next []string `json:"next"`
}

// previewCount is how many fires Preview lists.
const previewCount = 3

// Preview checks a cron expression in a time zone and returns its next
// fires. A bad expression or zone gives the sentence the CLI prints.
func (s *ScheduleService) Preview(cron, tz string) (CronPreview, error) {
	spec, err := schedule.Parse(cron, tz)
	if err != nil {
		return CronPreview{}, userError(err)
	}
	if tz == "" {
		tz = "UTC"
	}
	p := CronPreview{Cron: cron, TZ: tz, Text: schedule.Describe(cron), Next: []string{}}
	for t := s.now(); len(p.Next) < previewCount; {
		if t = spec.Next(t); t.IsZero() {
			break
		}
		p.Next = append(p.Next, t.UTC().Format(time.RFC3339))
	}
	if len(p.Next) == 0 {
		return CronPreview{}, userError(schedule.NeverFires(cron))
	}
	return p, nil
}

// List returns every schedule, the next to fire first (paused ones last).
func (s *ScheduleService) List() ([]ScheduleView, error) {
	ctx := s.ctx()
	all, err := s.store.ListSchedules(ctx)
	if err != nil {
		return nil, userError(err)
	}
	out := make([]ScheduleView, 0, len(all))
	for _, sc := range all {
		out = append(out, s.view(ctx, sc))
	}
	return out, nil
}

func (s *ScheduleService) view(ctx context.Context, sc task.Schedule) ScheduleView {
	v := ScheduleView{ID: sc.ID, Name: sc.Name, Display: sc.DisplayName(), Cron: sc.Cron, CronText: schedule.Describe(sc.Cron),
		TZ: sc.TZ, Paused: sc.Paused, NextFire: sc.NextFire, LastFire: sc.LastFire, Template: sc.Template, CreatedAt: sc.CreatedAt}
	if sc.LastTaskID != "" {
		if t, err := s.store.GetTask(ctx, sc.LastTaskID); err == nil {
			v.LastTask = &ScheduledTaskRef{ID: t.ID, Title: t.DisplayTitle(), Status: t.Status}
		}
	}
	return v
}

// Scheduled returns the pending tasks that wait for their start time
// (not before a time still ahead), the soonest first.
func (s *ScheduleService) Scheduled() ([]task.Task, error) {
	ts, err := s.store.ListTasks(s.ctx(), store.Filter{Statuses: []task.Status{task.StatusPending}, Limit: 5000})
	if err != nil {
		return nil, userError(err)
	}
	now := s.now()
	out := []task.Task{}
	for _, t := range ts {
		if t.NotBefore != nil && t.NotBefore.After(now) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b task.Task) int { return a.NotBefore.Compare(*b.NotBefore) })
	return out, nil
}

// Create stores a recurring task: the form's task is the template each
// fire of the cron expression queues, in the working directory. Nothing is
// stored on bad input (the CLI's sentences).
func (s *ScheduleService) Create(in ScheduleInput) (ScheduleView, error) {
	n := task.NewTask{Title: in.Task.Title, Prompt: in.Task.Prompt, Priority: in.Task.Priority, Base: in.Task.Base,
		Labels: in.Task.Labels, Runs: in.Task.Runs, Command: in.Task.Command, NotBefore: in.Task.NotBefore, Executor: in.Task.Executor, Repo: in.Task.Repo}
	sc, err := s.intake.Schedule(s.ctx(), task.Schedule{Name: in.Name, Cron: in.Cron, TZ: in.TZ, Template: n}, len(in.Task.Attachments))
	if err != nil {
		return ScheduleView{}, userError(err)
	}
	s.wake()
	return s.view(s.ctx(), sc), nil
}

// SetPaused pauses a schedule (it fires no more) or resumes it, armed for
// its next fire from now (fires due while it was paused are not caught up).
func (s *ScheduleService) SetPaused(id string, paused bool) (ScheduleView, error) {
	sc, err := schedule.SetPaused(s.ctx(), s.store, id, paused, s.now())
	if err != nil {
		return ScheduleView{}, userError(err)
	}
	s.wake()
	return s.view(s.ctx(), sc), nil
}

// Delete deletes a schedule and its log; the tasks it queued are kept.
func (s *ScheduleService) Delete(id string) error {
	if err := schedule.Delete(s.ctx(), s.store, id); err != nil {
		return userError(err)
	}
	s.wake()
	return nil
}

// RunNow queues a task from a schedule's template now, as a fire would,
// and logs it as such; the schedule's next fire stays as it was. A paused
// schedule is refused (resume it first).
func (s *ScheduleService) RunNow(id string) (task.Task, error) {
	ctx := s.ctx()
	sc, err := s.store.GetSchedule(ctx, id)
	if err != nil {
		return task.Task{}, userError(err)
	}
	paused := userError(&usererr.Edge{Kind: usererr.SchedulePaused, Value: sc.DisplayName()})
	if sc.Paused {
		return task.Task{}, paused
	}
	t, err := s.store.RecordFire(ctx, store.Fire{ScheduleID: id, Due: s.now(), Next: sc.NextFire, Outcome: task.FireQueued, Note: "run now from the window"})
	var se *store.StatusError
	if errors.As(err, &se) {
		return task.Task{}, paused
	}
	if err != nil {
		return task.Task{}, userError(err)
	}
	s.emit.Emit(EventTasksChanged)
	s.wake()
	return t, nil
}

// Update replaces a schedule's name, cron expression, zone and task (its
// paused state, log and last fire are kept) and re-arms it from now. Bad
// input changes nothing and gives the CLI's sentence.
func (s *ScheduleService) Update(id string, in ScheduleInput) (ScheduleView, error) {
	sc, err := s.intake.EditSchedule(s.ctx(), id, len(in.Task.Attachments), func(sc *task.Schedule) {
		sc.Name, sc.Cron, sc.TZ = in.Name, in.Cron, in.TZ
		t := &sc.Template
		t.Title, t.Prompt, t.Priority, t.Base, t.Labels, t.Runs, t.Command = in.Task.Title, in.Task.Prompt, in.Task.Priority, in.Task.Base, in.Task.Labels, in.Task.Runs, in.Task.Command
		t.NotBefore = in.Task.NotBefore
	})
	if err != nil {
		return ScheduleView{}, userError(err)
	}
	s.wake()
	return s.view(s.ctx(), sc), nil
}

// Log returns the newest fires of a schedule and what came of each
// (queued, skipped because the previous task still ran, missed, caught up),
// newest first.
func (s *ScheduleService) Log(id string) ([]task.ScheduleRun, error) {
	ctx := s.ctx()
	if _, err := s.store.GetSchedule(ctx, id); err != nil {
		return nil, userError(err)
	}
	runs, err := s.store.ScheduleRuns(ctx, id, 20)
	if err != nil {
		return nil, userError(err)
	}
	return runs, nil
}
