package intake

import (
	"context"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/schedule"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/taskmd"
)

// runs reports whether a task in status goes on running without a
// retry: the ones whose repository and base must be usable now.
func runs(s task.Status) bool {
	return s == "" || s == task.StatusDraft || s == task.StatusPending || s == task.StatusActions
}

// Import stores a parsed task file as a new task (taskmd.Import: its
// status, sections, log, times and the files in o kept). A task that will
// run (a draft, pending or waiting one) is checked as Task checks a new
// one, its repository defaulting to the settings' working directory. A
// finished one is a record: its repository must be an absolute path of one
// line, but need not exist here; without one it records the working
// directory of the settings when they name one. It returns Task's errors
// and taskmd.Import's (a *store.DuplicateOriginError).
func (s *Service) Import(ctx context.Context, d taskmd.Doc, o taskmd.Options) (task.Task, error) {
	t := &d.Task
	if runs(t.Status) {
		pl, err := s.place(ctx, t.Repo, t.Base)
		if err != nil {
			return task.Task{}, err
		}
		t.Repo = pl.repo
	} else if t.Repo != "" {
		if err := checkRecordedRepo(t.Repo); err != nil {
			return task.Task{}, err
		}
	} else if w, err := s.workDir(); err == nil {
		t.Repo = w
	}
	return taskmd.Import(ctx, s.st, d, o)
}

// checkRecordedRepo refuses a finished task's repository that could not
// name a folder on any machine: relative, or not one line of text.
func checkRecordedRepo(repo string) error {
	if err := checkRepoPath(repo, false); err != nil {
		if e := err.(*RepoError); e.Problem == RepoRelative || e.Problem == RepoNotText {
			return err
		}
	}
	return nil
}

// Schedule checks a recurring task — its cron expression and zone
// (backend/schedule), its template as Task checks a task, its command
// template — and stores it armed for its first fire after now. files is
// how many attachments came with it: a schedule carries none
// (ErrScheduleFiles), nor a start time (ErrScheduleStart).
func (s *Service) Schedule(ctx context.Context, sc task.Schedule, files int) (task.Schedule, error) {
	sc, err := s.checkSchedule(ctx, sc, files)
	if err != nil {
		return task.Schedule{}, err
	}
	return schedule.Create(ctx, s.st, sc, s.now())
}

// EditSchedule replaces a schedule's name, expression, zone and template
// (edit changes them on the stored schedule) after Schedule's checks, and
// re-arms it after now; nothing changes on error.
func (s *Service) EditSchedule(ctx context.Context, id string, files int, edit func(*task.Schedule)) (task.Schedule, error) {
	cur, err := s.st.GetSchedule(ctx, id)
	if err != nil {
		return task.Schedule{}, err
	}
	edit(&cur)
	next, err := s.checkSchedule(ctx, cur, files)
	if err != nil {
		return task.Schedule{}, err
	}
	return schedule.Edit(ctx, s.st, id, s.now(), func(sc *task.Schedule) {
		sc.Name, sc.Cron, sc.TZ, sc.Template = next.Name, next.Cron, next.TZ, next.Template
	})
}

func (s *Service) checkSchedule(ctx context.Context, sc task.Schedule, files int) (task.Schedule, error) {
	if files > 0 {
		return sc, ErrScheduleFiles
	}
	if sc.Template.NotBefore != nil {
		return sc, ErrScheduleStart
	}
	if _, err := schedule.Parse(sc.Cron, sc.TZ); err != nil {
		return sc, err
	}
	n, err := s.Check(ctx, sc.Template)
	if err != nil {
		return sc, err
	}
	if err := s.checkCommand(ctx, n.Command); err != nil {
		return sc, err
	}
	sc.Template = n
	return sc, nil
}

// checkCommand refuses a command template that does not exist (a
// *store.NotFoundError).
func (s *Service) checkCommand(ctx context.Context, name string) error {
	if name == "" {
		return nil
	}
	if _, err := s.st.GetCommand(ctx, name); err != nil {
		return fmt.Errorf("check command: %w", err)
	}
	return nil
}
