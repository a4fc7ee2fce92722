package app

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"sync"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/boof-runner/boof-runner/backend/usererr"
)

// EventUIOpen asks the window to show a screen; its payload is a UIRequest.
// Every way into the app from outside the window sends it: the tray's quick
// actions, a second launch (--new-task, --review [ID]), a click on a
// desktop notification.
const EventUIOpen = "ui:open"

// View names what a UIRequest opens.
type View string

// The views a UIRequest opens.
const (
	// ViewWindow shows the window as it is.
	ViewWindow View = ""
	// ViewNewTask opens the New task form with the prompt focused.
	ViewNewTask View = "new-task"
	// ViewReview opens the Review screen on TaskID; with no TaskID, its
	// empty state (nothing waits for review) or Message.
	ViewReview View = "review"
	// ViewTask opens the task on the Tasks screen.
	ViewTask View = "task"
	// ViewActions opens the Actions screen with TaskID's answer form focused.
	ViewActions View = "actions"
	// ViewMergeQueue opens the Merge queue screen.
	ViewMergeQueue View = "merge-queue"
)

// UIRequest asks the window to show a view. Seq numbers the requests of
// one app run; the front end reports each one it applied (NavService.Shown).
type UIRequest struct {
	Seq    int    `json:"seq"`
	View   View   `json:"view"`
	TaskID string `json:"task_id,omitempty"`
	// Message is shown on the opened screen (for example why the task asked
	// for could not be opened).
	Message string `json:"message,omitempty"`
}

// TaskReader reads tasks; *store.Store has it.
type TaskReader interface {
	GetTask(ctx context.Context, id string) (task.Task, error)
	ListTasks(ctx context.Context, f store.Filter) ([]task.Task, error)
}

// Navigator turns requests from outside the window into UIRequests: it
// resolves which task a review opens and queues requests until the front
// end is ready (it asks with NavService.Ready once it painted), so a launch
// with --new-task or a second launch during start-up is never lost.
type Navigator struct {
	store TaskReader
	emit  Emitter
	ctx   func() context.Context
	log   *slog.Logger

	mu      sync.Mutex
	seq     int
	ready   bool
	painted bool
	pending []UIRequest
}

// NewNavigator returns a Navigator; ctx supplies the app's lifetime context.
func NewNavigator(st TaskReader, emit Emitter, ctx func() context.Context, log *slog.Logger) *Navigator {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Navigator{store: st, emit: emit, ctx: ctx, log: log}
}

// Open asks the window to show r (its Seq is assigned here): at once when
// the front end is ready, else when it becomes ready. Only the newest
// pending request is kept: a user who clicked twice wants the last.
func (n *Navigator) Open(r UIRequest) UIRequest {
	n.mu.Lock()
	n.seq++
	r.Seq = n.seq
	ready := n.ready
	if !ready {
		n.pending = []UIRequest{r}
	}
	n.mu.Unlock()
	n.log.Info("window: open", "seq", r.Seq, "view", r.View, "task", r.TaskID)
	if ready {
		n.emit.Emit(EventUIOpen, r)
	}
	return r
}

// Review opens the Review screen: on task id, or with id "" on the oldest
// finished task waiting for review (none: the screen's empty state). An id
// that names no task opens the screen with the vocabulary's sentence.
func (n *Navigator) Review(id string) UIRequest {
	r := UIRequest{View: ViewReview}
	if id == "" {
		r.TaskID = n.oldestAwaitingReview()
		return n.Open(r)
	}
	t, err := n.store.GetTask(n.ctx(), id)
	switch {
	case err != nil:
		r.Message, _ = usererr.Describe(err)
	case t.Branch == "":
		r.Message = fmt.Sprintf("%q has nothing to review yet: it is %s.", displayTitle(t), t.Status)
	default:
		r.TaskID = t.ID
	}
	return n.Open(r)
}

// Task opens a task where its state says the user acts on it: a task with
// questions on the Actions screen with its answer form, a finished one on
// the Review screen, any other on the Tasks screen.
func (n *Navigator) Task(id string) UIRequest {
	t, err := n.store.GetTask(n.ctx(), id)
	if err != nil {
		msg, _ := usererr.Describe(err)
		return n.Open(UIRequest{View: ViewReview, Message: msg})
	}
	switch t.Status {
	case task.StatusActions:
		return n.Open(UIRequest{View: ViewActions, TaskID: t.ID})
	case task.StatusDone:
		return n.Open(UIRequest{View: ViewReview, TaskID: t.ID})
	default:
		return n.Open(UIRequest{View: ViewTask, TaskID: t.ID})
	}
}

// oldestAwaitingReview is the done task that finished first; "" when none
// or the store fails (logged).
func (n *Navigator) oldestAwaitingReview() string {
	ts, err := n.store.ListTasks(n.ctx(), store.Filter{Statuses: []task.Status{task.StatusDone}, Limit: 5000})
	if err != nil {
		n.log.Warn("review queue", "err", err)
		return ""
	}
	finished := func(t task.Task) string {
		if t.FinishedAt != nil {
			return t.FinishedAt.UTC().Format("2006-01-02T15:04:05.000000000")
		}
		return t.UpdatedAt.UTC().Format("2006-01-02T15:04:05.000000000")
	}
	sort.SliceStable(ts, func(i, j int) bool {
		if a, b := finished(ts[i]), finished(ts[j]); a != b {
			return a < b
		}
		return ts[i].ID < ts[j].ID
	})
	if len(ts) == 0 {
		return ""
	}
	return ts[0].ID
}

// ready marks the front end ready and returns the requests it missed.
func (n *Navigator) takePending() []UIRequest {
	n.mu.Lock()
	defer n.mu.Unlock()
	first := !n.painted
	n.ready, n.painted = true, true
	out := n.pending
	n.pending = nil
	if first {
		n.log.Info("window: first paint")
	}
	if out == nil {
		out = []UIRequest{}
	}
	return out
}

// NavService is the Navigator as the front end calls it (bound to the
// window).
type NavService struct {
	nav *Navigator
}

// NewNavService binds nav's front-end side.
func NewNavService(nav *Navigator) *NavService { return &NavService{nav: nav} }

// Ready says the front end has mounted and painted; it returns the requests
// made before (a launch with --new-task or --review, a second launch during
// start-up), oldest first. Later requests arrive as ui:open events.
func (s *NavService) Ready() ([]UIRequest, error) { return s.nav.takePending(), nil }

// Shown says the front end applied request seq (the window shows it); the
// log line is what the desktop tests and the second-launch benchmark wait
// for.
func (s *NavService) Shown(seq int, view string) error {
	s.nav.log.Info("window: shown", "seq", seq, "view", view)
	return nil
}

// displayTitle is a task's title, else its prompt's first line, else its id.
func displayTitle(t task.Task) string {
	if s := t.DisplayTitle(); s != "" {
		return s
	}
	return t.ID
}
