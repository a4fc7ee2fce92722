// Package intake is the one way work the user asks for comes in: a new
// task (the window's form, `boof-runner add`), an imported task file and a
// recurring schedule all pass the same checks here before anything is
// stored. It refuses at once what the runner would refuse later — a
// repository that is not there, no working directory, a base ref that
// names no commit, a repository with nothing to start from, a template or
// schedule that cannot be used — with typed errors that backend/usererr
// words.
package intake

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/boof-runner/boof-runner/backend/gitx"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/userfile"
	"github.com/boof-runner/boof-runner/backend/worktree"
)

// Options are what a Service needs.
type Options struct {
	// Store is where tasks and schedules are kept.
	Store *store.Store
	// Settings loads the current settings (settings.File.Load); a task
	// without its own repository runs in their working directory. Nil: no
	// settings, so every task needs its own repository.
	Settings func() (settings.Settings, error)
	// Git runs the repository checks; nil means gitx.New().
	Git *gitx.Git
	// Now is the clock schedules are armed with; nil means time.Now.
	Now func() time.Time
}

// Service checks and stores new work. It is safe for concurrent use.
type Service struct {
	st       *store.Store
	settings func() (settings.Settings, error)
	starts   *worktree.Manager
	git      *gitx.Git
	now      func() time.Time
}

// New returns a Service.
func New(o Options) *Service {
	if o.Git == nil {
		o.Git = gitx.New()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{st: o.Store, settings: o.Settings, git: o.Git, starts: worktree.NewManager(o.Git, o.Now), now: o.Now}
}

// Request is a new task: what the user wrote and the files to attach
// (each a regular file opened by the caller, see backend/userfile).
type Request struct {
	Task  task.NewTask
	Files []store.NewFile
	// Limit caps each attachment in bytes; <= 0 means the store's limit.
	Limit int64
	// Issue, when set, is the forge issue the task is made from: it is
	// recorded with the task (the pull request then closes it). A task
	// from an issue takes no files.
	Issue *store.IssueLink
}

// Created is a stored task and where it runs.
type Created struct {
	Task task.Task
	// Unisolated is set when the task's folder is not a git repository:
	// it runs without a worktree, writing into the folder itself.
	Unisolated bool
}

// Task checks a new task as the runner would before its first step and
// stores it, with its attachments and its copy of the command template, or
// stores nothing. A task without a repository records the working
// directory of the settings now, so review works whatever they say later.
// Besides the store's errors (task.ErrInvalid, a *store.NotFoundError for a
// missing template) it returns ErrNoWorkDir, a *SettingsError, a
// *RepoError, a *worktree.UnknownBaseError, an error matching
// worktree.ErrNoCommits (a *worktree.UnbornError when HEAD is on a branch
// without commits) and gitx errors (a bare repository).
func (s *Service) Task(ctx context.Context, r Request) (Created, error) {
	n, pl, err := s.check(ctx, r.Task)
	if err != nil {
		return Created{}, err
	}
	var t task.Task
	if r.Issue != nil {
		if len(r.Files) > 0 {
			return Created{}, fmt.Errorf("%w: a task made from an issue takes no attachments", task.ErrInvalid)
		}
		t, err = s.st.CreateTaskFromIssue(ctx, n, *r.Issue)
	} else {
		t, _, err = s.st.CreateTaskWithFiles(ctx, n, r.Files, r.Limit)
	}
	if err != nil {
		return Created{}, err
	}
	return Created{Task: t, Unisolated: !pl.git}, nil
}

// Check returns n normalized with its repository resolved (Task's checks,
// without storing anything): for a template (a schedule's) or an edit.
func (s *Service) Check(ctx context.Context, n task.NewTask) (task.NewTask, error) {
	n, _, err := s.check(ctx, n)
	return n, err
}

func (s *Service) check(ctx context.Context, n task.NewTask) (task.NewTask, place, error) {
	n, err := n.Normalize()
	if err != nil {
		return n, place{}, err
	}
	pl, err := s.place(ctx, n.Repo, n.Base)
	if err != nil {
		return n, place{}, err
	}
	n.Repo = pl.repo
	if err := s.checkExecutor(n, pl); err != nil {
		return n, place{}, err
	}
	return n, pl, nil
}

// checkExecutor refuses a task that chooses the cluster when the settings
// name none (no executor.image) or its folder is not a git repository.
func (s *Service) checkExecutor(n task.NewTask, pl place) error {
	if n.Executor != task.ExecutorKubernetes {
		return nil
	}
	if !pl.git {
		return ErrClusterNeedsGit
	}
	if s.settings == nil {
		return ErrNoCluster
	}
	set, err := s.settings()
	if err != nil {
		return &SettingsError{Err: err}
	}
	if !set.Executor.HasCluster() {
		return ErrNoCluster
	}
	return nil
}

// CheckBase checks that a task in repo (recorded, absolute) can start
// from base: the same check as Task's.
func (s *Service) CheckBase(ctx context.Context, repo, base string) error {
	_, err := s.place(ctx, repo, base)
	return err
}

// place is where a task runs.
type place struct {
	repo string
	// git is false for a plain folder (no worktree isolation).
	git bool
}

// place resolves a task's repository (the settings' working directory
// when repo is "") and checks that it exists, is a folder and has a start
// point for base.
func (s *Service) place(ctx context.Context, repo, base string) (place, error) {
	fromSettings := repo == ""
	if fromSettings {
		var err error
		if repo, err = s.workDir(); err != nil {
			return place{}, err
		}
	}
	if err := checkRepoPath(repo, fromSettings); err != nil {
		return place{}, err
	}
	repo = filepath.Clean(repo)
	_, err := s.git.Info(ctx, repo)
	switch {
	case errors.Is(err, gitx.ErrNotARepo):
		if base != "" { // a plain folder has no refs
			return place{}, &worktree.UnknownBaseError{Base: base, Dir: repo}
		}
		return place{repo: repo}, nil
	case err != nil:
		return place{}, fmt.Errorf("check repository: %w", err)
	}
	if _, _, err := s.starts.StartPoint(ctx, repo, base); err != nil {
		return place{}, err
	}
	return place{repo: repo, git: true}, nil
}

// workDir is the settings' working directory: ErrNoWorkDir when they name
// none, a *SettingsError when they cannot be read.
func (s *Service) workDir() (string, error) {
	if s.settings == nil {
		return "", ErrNoWorkDir
	}
	set, err := s.settings()
	if err != nil {
		return "", &SettingsError{Err: err}
	}
	if w := set.WorkDir(); w != "" {
		return w, nil
	}
	return "", ErrNoWorkDir
}

// checkRepoPath refuses a repository path that is not one line of text,
// not absolute, or not an existing folder.
func checkRepoPath(repo string, fromSettings bool) error {
	bad := func(p RepoProblem) *RepoError { return &RepoError{Repo: repo, Problem: p, FromSettings: fromSettings} }
	if p := task.LineProblem(repo); p != "" {
		e := bad(RepoNotText)
		e.Detail = p
		return e
	}
	if !filepath.IsAbs(repo) {
		return bad(RepoRelative)
	}
	fi, err := os.Stat(repo)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return bad(RepoMissing)
	case err != nil:
		e := bad(RepoUnreadable)
		e.Err = err
		return e
	case !fi.IsDir():
		e := bad(RepoNotFolder)
		e.Kind = userfile.KindOf(fi.Mode())
		return e
	}
	return nil
}
