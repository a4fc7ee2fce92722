package app

import (
	"context"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// TaskService is the task queue as the UI sees it.
type TaskService struct {
	store *store.Store
	emit  Emitter
	ctx   func() context.Context
}

// NewTaskService builds the service; ctx supplies the app's lifetime context.
func NewTaskService(s *store.Store, emit Emitter, ctx func() context.Context) *TaskService {
	return &TaskService{store: s, emit: emit, ctx: ctx}
}

// ListFilter selects tasks.
type ListFilter struct {
	Status string `json:"status"`
	Search string `json:"search"`
}

// List returns tasks, newest activity first.
func (s *TaskService) List(f ListFilter) ([]task.Task, error) {
	var sf store.Filter
	sf.Search = f.Search
	sf.Limit = 2000
	if f.Status != "" {
		st, err := task.ParseStatus(f.Status)
		if err != nil {
			return nil, userError(err)
		}
		sf.Statuses = []task.Status{st}
	}
	tasks, err := s.store.ListTasks(s.ctx(), sf)
	return tasks, userError(err)
}

// NewTaskInput is the New task form.
type NewTaskInput struct {
	Title    string   `json:"title"`
	Prompt   string   `json:"prompt"`
	Priority int      `json:"priority"`
	Base     string   `json:"base"`
	Labels   []string `json:"labels"`
	Runs     int      `json:"runs"`
}

// Create stores a new pending task and tells the UI the queue changed.
func (s *TaskService) Create(in NewTaskInput) (task.Task, error) {
	t, err := s.store.CreateTask(s.ctx(), task.NewTask{
		Title: in.Title, Prompt: in.Prompt, Priority: in.Priority,
		Base: in.Base, Labels: in.Labels, Runs: in.Runs,
	})
	if err != nil {
		return task.Task{}, userError(err)
	}
	s.emit.Emit(EventTasksChanged)
	return t, nil
}
