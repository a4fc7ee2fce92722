package host

import (
	"context"
	"fmt"
	"time"

	"github.com/boof-runner/boof-runner/backend/dataroot"
	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/intake"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/review"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Services are the backend services of one data root that need no runner
// lock: the window and the CLI's commands use them whether or not their
// process runs the queue. NewServices builds them; Open builds them once
// for its Host, which holds them (Host.Services).
type Services struct {
	// Paths is the data root.
	Paths dataroot.Paths
	// Store is the open store of that data root.
	Store *store.Store
	// Settings is the data root's settings file.
	Settings *settings.File
	// Git runs the git commands of the window and the CLI: untagged and
	// without the runner's deadline (the runner's own are Host's).
	Git *gitx.Git
	// Review is the journaled review service: its accepts and undos are
	// journaled in the data root and their git commands carry its step
	// tag.
	Review *review.Service
	// Worktrees reads task worktrees and the changes in them.
	Worktrees *worktree.Manager
	// Intake is the one way new work comes into the store: the window's
	// task and schedule forms, `boof-runner add` and import.
	Intake *intake.Service
	// Now is the clock of these services (Options.Now).
	Now func() time.Time
}

// NewServices builds the Services of o.Paths over o.Store with the clock
// o.Now (default time.Now). A signal during an accept's or an undo's move
// is reported to o.Hooks.OnLog (may be nil) as a warning of the task.
func NewServices(o Options) *Services {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	g := gitx.New()
	s := &Services{Paths: o.Paths, Store: o.Store, Settings: SettingsFile(o.Paths), Git: g,
		Worktrees: worktree.NewManager(g, now), Now: now}
	s.Intake = intake.New(intake.Options{Store: o.Store, Settings: s.Settings.Load, Git: g, Now: now})
	opts := []review.Option{review.WithJournal(review.NewJournal(o.Paths.Journal(), proc.Scope(o.Paths.Root)))}
	if onLog := o.Hooks.OnLog; onLog != nil {
		// A signal during a landing's move: the move is finished first.
		opts = append(opts, review.WithNotice(func(taskID, text string) { onLog(taskID, 0, task.LevelWarn, text) }))
	}
	s.Review = review.New(g, now, opts...)
	return s
}

// RepairRepos records the working directory of tasks that ran in git but
// recorded none (added before the working directory was recorded at add),
// so that their review commands work: the repository of the task's
// worktree, else the settings' working directory when it holds the task's
// branch (see worktree.Manager.RepoOf). It returns the ids it repaired.
// Tasks it cannot place are left as they are. It reads settings only when
// such a task exists, so opening a data root with none costs one query.
func (s *Services) RepairRepos(ctx context.Context) ([]string, error) {
	tasks, err := s.Store.TasksWithoutRepo(ctx)
	if err != nil || len(tasks) == 0 {
		return nil, err
	}
	set, _ := s.Settings.Load() // invalid settings: their defaults hold no working directory
	var fixed []string
	for _, t := range tasks {
		repo := s.Worktrees.RepoOf(ctx, t, set.WorkDir())
		if repo == "" {
			continue
		}
		ok, err := s.Store.RecordRepo(ctx, t.ID, repo)
		if err != nil {
			return fixed, fmt.Errorf("repair repo of %s: %w", t.ID, err)
		}
		if ok {
			fixed = append(fixed, t.ID)
		}
	}
	return fixed, nil
}
