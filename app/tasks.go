package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"time"

	"github.com/boof-runner/boof-runner/backend/intake"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/taskmd"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Branches lists the local branches of a working directory (for the base-ref
// picker); injected so the service needs no git of its own.
type Branches func(ctx context.Context, repo string) ([]string, error)

// TaskService is the task queue as the UI sees it.
type TaskService struct {
	store    *store.Store
	emit     Emitter
	ctx      func() context.Context
	workDir  func() string
	branches Branches
	// RemoveBranches deletes a task's branches when the user asks for it on delete.
	removeBranches func(ctx context.Context, t task.Task) error
	wake           func()
	intake         *intake.Service
}

// TaskDeps are the optional collaborators of TaskService.
type TaskDeps struct {
	WorkDir        func() string
	Branches       Branches
	RemoveBranches func(ctx context.Context, t task.Task) error
	// Wake tells this process's runner loop that the queue changed.
	Wake func()
	// Intake creates and imports tasks with the checks `boof-runner add`
	// and import make (host.Services.Intake). Nil: one over the store with no
	// settings, so every task needs a repository of its own.
	Intake *intake.Service
}

// NewTaskService builds the service; ctx supplies the app's lifetime context.
func NewTaskService(s *store.Store, emit Emitter, ctx func() context.Context, d TaskDeps) *TaskService {
	if d.WorkDir == nil {
		d.WorkDir = func() string { return "" }
	}
	if d.Wake == nil {
		d.Wake = func() {}
	}
	if d.Intake == nil {
		d.Intake = intake.New(intake.Options{Store: s})
	}
	return &TaskService{store: s, emit: emit, ctx: ctx, workDir: d.WorkDir, branches: d.Branches, removeBranches: d.RemoveBranches, wake: d.Wake, intake: d.Intake}
}

// ListFilter selects tasks. Status "" lists every status but archived.
type ListFilter struct {
	Status string `json:"status"`
	Search string `json:"search"`
	Label  string `json:"label"`
}

// List returns tasks, newest activity first.
func (s *TaskService) List(f ListFilter) ([]task.Task, error) {
	sf := store.Filter{Search: f.Search, Label: f.Label, Limit: 5000}
	if f.Status != "" {
		st, err := task.ParseStatus(f.Status)
		if err != nil {
			return nil, userError(err)
		}
		sf.Statuses = []task.Status{st}
	} else {
		for _, st := range task.Statuses {
			if st != task.StatusArchived {
				sf.Statuses = append(sf.Statuses, st)
			}
		}
	}
	tasks, err := s.store.ListTasks(s.ctx(), sf)
	if err != nil {
		return nil, userError(err)
	}
	return tasks, nil
}

// NewTaskInput is the New task form.
type NewTaskInput struct {
	Title    string   `json:"title"`
	Prompt   string   `json:"prompt"`
	Priority int      `json:"priority"`
	Base     string   `json:"base"`
	Labels   []string `json:"labels"`
	Runs     int      `json:"runs"`
	// Command names a command template; its text is copied into the task.
	Command string `json:"command"`
	// Attachments are files the agents get the paths of.
	Attachments []AttachmentInput `json:"attachments"`
	// NotBefore is the earliest time the queue may start the task (nil:
	// any time; a time in the past: now).
	NotBefore *time.Time `json:"not_before,omitempty"`
	// Repo is the repository the task runs in (an absolute path; see
	// SetupService.PickRepository and RecentRepositories); "" is the
	// settings' working directory, and with none set the task is refused.
	Repo string `json:"repo"`
	// Executor is where the task runs: "" (settings.executor decides),
	// "local" or "kubernetes".
	Executor task.Executor `json:"executor,omitempty"`
}

// Create stores a new pending task in its repository (in.Repo, else the
// working directory of the settings), with its template text and
// attachments, all at once or not at all, and tells the UI the queue
// changed. It makes the checks of
// `boof-runner add` (backend/intake): a working directory that exists, a
// base ref that names a commit of it, a repository with a commit to start
// from; nothing is stored when one fails.
func (s *TaskService) Create(in NewTaskInput) (task.Task, error) {
	files, err := decodeFiles(in.Attachments)
	if err != nil {
		return task.Task{}, userError(err)
	}
	nt := task.NewTask{
		Title: in.Title, Prompt: in.Prompt, Priority: in.Priority, Base: in.Base, Labels: in.Labels,
		Runs: in.Runs, Command: in.Command, NotBefore: in.NotBefore, Repo: in.Repo, Executor: in.Executor,
	}
	c, err := s.intake.Task(s.ctx(), intake.Request{Task: nt, Files: files, Limit: store.DefaultAttachmentLimit})
	return s.changed(c.Task, err)
}

// decodeFiles decodes the files the window sent.
func decodeFiles(in []AttachmentInput) ([]store.NewFile, error) {
	files := make([]store.NewFile, 0, len(in))
	for _, a := range in {
		data, err := base64.StdEncoding.DecodeString(a.DataBase64)
		if err != nil {
			return nil, &userfile.Error{Role: userfile.Attachment, Path: a.Name, Problem: userfile.BadEncoding, Err: err}
		}
		files = append(files, store.NewFile{Name: a.Name, Data: bytes.NewReader(data)})
	}
	return files, nil
}

// changed emits tasks:changed after a successful write.
func (s *TaskService) changed(t task.Task, err error) (task.Task, error) {
	if err != nil {
		return task.Task{}, userError(err)
	}
	s.emit.Emit(EventTasksChanged)
	s.wake()
	return t, nil
}

func (s *TaskService) reload(id string, err error) (task.Task, error) {
	if err != nil {
		return task.Task{}, userError(err)
	}
	return s.changed(s.store.GetTask(s.ctx(), id))
}

// TaskUpdate is the editable part of a task.
type TaskUpdate struct {
	Title    string     `json:"title"`
	Prompt   string     `json:"prompt"`
	Labels   []string   `json:"labels"`
	Priority int        `json:"priority"`
	Runs     int        `json:"runs"`
	Base     string     `json:"base"`
	Command  string     `json:"command"`
	Tools    task.Tools `json:"tools"`
}

// Update replaces a draft or pending task's editable fields; refused while
// the task runs.
func (s *TaskService) Update(id string, u TaskUpdate) (task.Task, error) {
	cur, err := s.store.GetTask(s.ctx(), id)
	if err != nil {
		return task.Task{}, userError(err)
	}
	if u.Base != cur.Base && u.Base != "" && cur.Repo != "" {
		if err := s.intake.CheckBase(s.ctx(), cur.Repo, u.Base); err != nil {
			return task.Task{}, userError(err)
		}
	}
	return s.changed(s.store.UpdateTask(s.ctx(), id, store.TaskEdit{
		Title: u.Title, Prompt: u.Prompt, Labels: u.Labels, Priority: u.Priority, Runs: u.Runs,
		Base: u.Base, Command: u.Command, Repo: cur.Repo, Tools: u.Tools,
	}))
}

// SetPriority sets a task's priority.
func (s *TaskService) SetPriority(id string, priority int) (task.Task, error) {
	return s.reload(id, s.store.SetPriority(s.ctx(), id, priority))
}

// SetSkip sets whether the queue skips a task.
func (s *TaskService) SetSkip(id string, skip bool) (task.Task, error) {
	return s.reload(id, s.store.SetSkip(s.ctx(), id, skip))
}

// Reorder puts pending tasks in the given run order: each id after the one
// before it. Unknown or non-pending ids are refused.
func (s *TaskService) Reorder(ids []string) error {
	ctx := s.ctx()
	for _, id := range ids {
		t, err := s.store.GetTask(ctx, id)
		if err != nil {
			return userError(err)
		}
		if t.Status != task.StatusPending {
			return userError(&store.StatusError{Op: "reorder", TaskID: id, Status: t.Status, Allowed: []task.Status{task.StatusPending}})
		}
	}
	for i := 1; i < len(ids); i++ {
		if err := s.store.Reorder(ctx, ids[i], "", ids[i-1]); err != nil {
			return userError(err)
		}
	}
	s.emit.Emit(EventTasksChanged)
	s.wake() // the next task to run may be another one now
	return nil
}

// Retry re-queues a failed or stopped task; its worktree and branch are
// kept. A stopped task resumes at the step that was cut short (the plan and
// the earlier reports are reused); a failed one restarts at the planner.
func (s *TaskService) Retry(id string) (task.Task, error) {
	return s.changed(s.store.Retry(s.ctx(), id))
}

// RetryFrom re-queues a failed or stopped task starting at from:
// "planner" (start over) or "developer" (keep the last final plan; a task
// whose planning never finished is refused).
func (s *TaskService) RetryFrom(id, from string) (task.Task, error) {
	return s.changed(s.store.RetryWith(s.ctx(), id, store.RetryOptions{From: task.Role(from)}))
}

// Archive puts a finished task away.
func (s *TaskService) Archive(id string) (task.Task, error) {
	return s.changed(s.store.Archive(s.ctx(), id))
}

// Unarchive returns a task to the status it had before archiving.
func (s *TaskService) Unarchive(id string) (task.Task, error) {
	return s.changed(s.store.Unarchive(s.ctx(), id))
}

// DeleteOptions say what else goes with a deleted task.
type DeleteOptions struct {
	DeleteBranches bool `json:"delete_branches"`
}

// Delete removes a task that is not running. Git branches are kept unless
// the user explicitly asked to delete them.
func (s *TaskService) Delete(id string, o DeleteOptions) error {
	ctx := s.ctx()
	t, err := s.store.GetTask(ctx, id)
	if err != nil {
		return userError(err)
	}
	if t.Status == task.StatusOngoing { // before any branch is touched
		return userError(&store.StatusError{Op: "delete", TaskID: id, Status: t.Status})
	}
	if o.DeleteBranches && s.removeBranches != nil {
		if err := s.removeBranches(ctx, t); err != nil {
			return userError(err)
		}
	}
	if err := s.store.DeleteTask(ctx, id); err != nil {
		return userError(err)
	}
	s.emit.Emit(EventTasksChanged)
	return nil
}

// Export returns the task as markdown.
func (s *TaskService) Export(id string) (string, error) {
	ctx := s.ctx()
	doc, err := taskmd.Load(ctx, s.store, id)
	if err != nil {
		return "", userError(err)
	}
	var b bytes.Buffer
	if err := taskmd.Write(&b, doc); err != nil {
		return "", userError(err)
	}
	_ = s.store.AppendEvent(ctx, id, task.Exported{Via: "ui"})
	return b.String(), nil
}

// ImportResult is a task imported from a file and what the import noted:
// unknown keys and sections kept, a status mapped.
type ImportResult struct {
	Task  task.Task `json:"task"`
	Notes []string  `json:"notes"`
}

// Import creates a new task from a task file: this app's export or the
// earlier version's. A file whose task was imported before is refused
// unless again.
func (s *TaskService) Import(markdown string, again bool) (ImportResult, error) {
	doc, err := taskmd.Parse([]byte(markdown))
	if err != nil {
		return ImportResult{}, userError(err)
	}
	t, err := s.changed(s.intake.Import(s.ctx(), doc, taskmd.Options{Again: again}))
	if err != nil {
		return ImportResult{}, err
	}
	notes := doc.Notes
	if notes == nil {
		notes = []string{}
	}
	return ImportResult{Task: t, Notes: notes}, nil
}

// Answer stores the user's answers to a parked task and re-queues it.
func (s *TaskService) Answer(id, answer string) (task.Task, error) {
	return s.changed(s.store.Answer(s.ctx(), id, answer))
}

// Branches lists the local branches of the working directory.
func (s *TaskService) Branches() ([]string, error) {
	if s.branches == nil || s.workDir() == "" {
		return []string{}, nil
	}
	b, err := s.branches(s.ctx(), s.workDir())
	if err != nil {
		return nil, userError(err)
	}
	return b, nil
}

// AttachmentInput is a file the user picked, base64-encoded.
type AttachmentInput struct {
	Name       string `json:"name"`
	DataBase64 string `json:"data_base64"`
}

// AddAttachment copies a file into the task's attachments.
func (s *TaskService) AddAttachment(id string, f AttachmentInput) ([]store.Attachment, error) {
	data, err := base64.StdEncoding.DecodeString(f.DataBase64)
	if err != nil {
		return nil, userError(&userfile.Error{Role: userfile.Attachment, Problem: userfile.BadEncoding, Err: err})
	}
	if _, err := s.store.AddAttachment(s.ctx(), id, f.Name, bytes.NewReader(data), store.DefaultAttachmentLimit); err != nil {
		return nil, userError(err)
	}
	s.emit.Emit(EventTasksChanged)
	return s.attachments(id)
}

// RemoveAttachment deletes one attachment.
func (s *TaskService) RemoveAttachment(id, name string) ([]store.Attachment, error) {
	if err := s.store.RemoveAttachment(s.ctx(), id, name); err != nil {
		return nil, userError(err)
	}
	s.emit.Emit(EventTasksChanged)
	return s.attachments(id)
}

func (s *TaskService) attachments(id string) ([]store.Attachment, error) {
	a, err := s.store.Attachments(s.ctx(), id)
	if err != nil {
		return nil, userError(err)
	}
	if a == nil {
		a = []store.Attachment{}
	}
	return a, nil
}
