package shell

import (
	"context"
	"fmt"
	"html"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/budget"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
	"github.com/godbus/dbus/v5"
)

// Desktop notifications (org.freedesktop.Notifications over the session bus).
const (
	notifyName  = "org.freedesktop.Notifications"
	notifyPath  = dbus.ObjectPath("/org/freedesktop/Notifications")
	notifyLimit = 5000 // rows read per check
)

// NotifierOptions configure a Notifier; every field has a default.
type NotifierOptions struct {
	// Enabled is the notifications setting; nil means on. While it is off
	// transitions are still tracked, so turning it on replays nothing.
	Enabled func() bool
	// AppIcon is the icon name or file URI sent with each notification.
	AppIcon string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Open is called with the task of a notification the user clicked (the
	// server's ActionInvoked signal); nil means clicks do nothing.
	Open func(taskID string)
	Log  *slog.Logger
}

// Notifier sends a desktop notification when a task finishes (done), fails,
// or needs an answer (actions). It finds transitions by comparing task
// statuses between checks: the first check only records what is there, and
// each transition is announced once.
type Notifier struct {
	store TaskReader
	opts  NotifierOptions
	hint  chan struct{}

	mu     sync.Mutex
	prev   map[string]seenTask // nil until the first check
	since  time.Time           // start of the previous check, in store precision
	conn   *dbus.Conn
	markup bool              // the server renders body markup, so bodies are escaped
	warned bool              // "notifications unavailable" was logged since the last success
	stops  map[string]string // task id → title of stops the tray asked for
	sent   map[uint32]string // notification id → its task, for clicks
	sentQ  []uint32          // sent's ids, oldest first (bounded)
	queued []Notification    // budget warnings to send at the next check

	cancel  context.CancelFunc
	wg      sync.WaitGroup
	clickWG sync.WaitGroup // the click listeners, which end with their connection
}

// seenTask is what a check remembers of a task: a change in any of it is a
// new transition.
type seenTask struct {
	status    task.Status
	finished  time.Time
	questions string
}

// NewNotifier returns a Notifier reading tasks from st.
func NewNotifier(st TaskReader, opts NotifierOptions) *Notifier {
	if opts.Enabled == nil {
		opts.Enabled = func() bool { return true }
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &Notifier{store: st, opts: opts, hint: make(chan struct{}, 1), stops: map[string]string{}, sent: map[uint32]string{}}
}

// maxClickable bounds how many sent notifications stay clickable.
const maxClickable = 200

// ExpectStop says the user asked (from the tray) to stop task id: once the
// task is stopped, a notification says so and that its work was kept.
func (n *Notifier) ExpectStop(id, title string) {
	n.mu.Lock()
	n.stops[id] = title
	n.mu.Unlock()
	n.Hint()
}

// Notification is one message sent to the desktop.
type Notification struct {
	TaskID  string
	Summary string
	Body    string
}

// Check compares the tasks with the previous check and notifies each new
// transition. It returns the store's error (and then changes nothing); a
// missing session bus or notification server is logged once, not returned.
func (n *Notifier) Check(ctx context.Context) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	start := n.opts.Now().Truncate(time.Millisecond)
	tasks, err := n.store.ListTasks(ctx, store.Filter{
		Statuses: []task.Status{task.StatusPending, task.StatusOngoing, task.StatusActions, task.StatusDone, task.StatusFailed, task.StatusStopped},
		Limit:    notifyLimit,
	})
	if err != nil {
		return fmt.Errorf("check notifications: %w", err)
	}
	next := make(map[string]seenTask, len(tasks))
	var out []Notification
	for _, t := range tasks {
		cur := seenTask{status: t.Status, questions: strings.Join(t.Questions, "\n")}
		if t.FinishedAt != nil {
			cur.finished = *t.FinishedAt
		}
		next[t.ID] = cur
		if title, ok := n.stops[t.ID]; ok && t.Status != task.StatusOngoing {
			delete(n.stops, t.ID)
			if t.Status == task.StatusStopped {
				out = append(out, stoppedNotification(t, title))
			}
		}
		if n.prev == nil {
			continue
		}
		if msg, ok := n.transition(t, cur); ok {
			out = append(out, msg)
		}
	}
	n.prev, n.since = next, start
	out = append(n.queued, out...) // budget warnings first: the newest notification ends on top
	n.queued = nil
	if len(out) == 0 || !n.opts.Enabled() {
		return nil
	}
	// Oldest first, so the newest notification ends on top.
	slices.Reverse(out)
	for _, m := range out {
		if !n.send(ctx, m) {
			break
		}
	}
	return nil
}

// transition returns the notification for t when it newly reached a
// status worth one. A task seen by the previous check counts when its
// status, finish time or questions changed (it cannot have left and come
// back through archived or accepted: those are not listed). A task not seen
// before counts only when it started (actions) or finished (done, failed)
// after the previous check, so an imported or unarchived old task stays
// quiet.
func (n *Notifier) transition(t task.Task, cur seenTask) (Notification, bool) {
	var at *time.Time
	switch t.Status {
	case task.StatusDone, task.StatusFailed:
		at = t.FinishedAt
	case task.StatusStopped:
		if !guardStopped(t) {
			return Notification{}, false
		}
		at = t.FinishedAt
	case task.StatusActions:
		at = t.StartedAt
	default:
		return Notification{}, false
	}
	if old, seen := n.prev[t.ID]; seen {
		return notificationFor(t), old != cur
	}
	if at == nil || at.Before(n.since) {
		return Notification{}, false
	}
	return notificationFor(t), true
}

// notificationFor builds the text for a task in done, failed or actions.
func notificationFor(t task.Task) Notification {
	title := trimTitle(displayTitle(t))
	m := Notification{TaskID: t.ID}
	switch t.Status {
	case task.StatusDone:
		m.Summary, m.Body = "Task finished: "+title, "Ready for review."
	case task.StatusFailed:
		m.Summary, m.Body = "Task failed: "+title, firstLine(strings.TrimSpace(t.Error))
		if m.Body == "" {
			m.Body = "Open the task to see its log."
		}
	case task.StatusStopped:
		m.Summary, m.Body = "Task stopped: "+title, firstLine(strings.TrimSpace(t.Error))+"; its work is kept."
	case task.StatusActions:
		m.Summary, m.Body = "Task needs an answer: "+title, "The planner has questions."
		if len(t.Questions) > 0 {
			m.Body = firstLine(strings.TrimSpace(t.Questions[0]))
		}
	}
	if r := []rune(m.Body); len(r) > 200 {
		m.Body = string(r[:200]) + "…"
	}
	return m
}

// guardStopped reports whether a budget cap or a circuit breaker stopped t
// (the user did not: they hear of it).
func guardStopped(t task.Task) bool {
	return strings.HasPrefix(t.Error, "budget:") || strings.HasPrefix(t.Error, budget.BreakerPrefix)
}

// BudgetWarning queues the notification of a budget warning (80 % or
// 100 % crossed, each once) of task taskID, sent at the next check.
func (n *Notifier) BudgetWarning(taskID string, w task.BudgetWarning) {
	label := w.Period
	if w.Tool != "" {
		label = w.Tool + " " + w.Period
	}
	m := Notification{TaskID: taskID, Summary: fmt.Sprintf("Budget warning: %s at %d %%", label, w.Percent), Body: budget.SpendText(w.BudgetSpend) + " spent."}
	if w.Percent >= 100 {
		m.Summary = "Budget reached: " + label
		m.Body += " It only warns: nothing is stopped."
	}
	n.mu.Lock()
	n.queued = append(n.queued, m)
	n.mu.Unlock()
	n.Hint()
}

// stoppedNotification says that a stop the user asked for happened and
// that the work was kept.
func stoppedNotification(t task.Task, title string) Notification {
	m := Notification{TaskID: t.ID, Summary: "Stopped: " + trimTitle(title), Body: "Its work is kept in its worktree."}
	if t.Branch != "" {
		m.Body = "Its work is kept on branch " + t.Branch + " and in its worktree."
	}
	return m
}

// send delivers m; it reports false when the server cannot be reached, so
// the rest of a batch is not tried.
func (n *Notifier) send(ctx context.Context, m Notification) bool {
	if handled, err := platformNotify(ctx, m); handled {
		if err != nil {
			n.unavailable(err)
			return false
		}
		n.warned = false
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := n.connect(ctx); err != nil {
		n.unavailable(err)
		return false
	}
	body := m.Body
	if n.markup {
		body = html.EscapeString(body)
	}
	hints := map[string]dbus.Variant{
		"desktop-entry": dbus.MakeVariant("boof-runner"),
		"urgency":       dbus.MakeVariant(byte(1)),
	}
	var id uint32
	// The "default" action is a click on the notification itself.
	actions := []string{"default", "Open"}
	err := n.conn.Object(notifyName, notifyPath).CallWithContext(ctx, notifyName+".Notify", 0,
		"Boof Runner", uint32(0), n.opts.AppIcon, m.Summary, body, actions, hints, int32(-1)).Store(&id)
	if err != nil {
		if !n.conn.Connected() {
			n.conn.Close()
			n.conn = nil
		}
		n.unavailable(err)
		return false
	}
	n.warned = false
	if m.TaskID != "" {
		n.sent[id] = m.TaskID
		n.sentQ = append(n.sentQ, id)
		if len(n.sentQ) > maxClickable {
			delete(n.sent, n.sentQ[0])
			n.sentQ = n.sentQ[1:]
		}
	}
	return true
}

// connect opens the private session-bus connection and reads the server's
// capabilities once.
func (n *Notifier) connect(ctx context.Context) error {
	if n.conn != nil {
		return nil
	}
	conn, err := dialSession(ctx)
	if err != nil {
		return err
	}
	var caps []string
	if err := conn.Object(notifyName, notifyPath).CallWithContext(ctx, notifyName+".GetCapabilities", 0).Store(&caps); err != nil {
		conn.Close()
		return fmt.Errorf("notification server: %w", err)
	}
	n.conn, n.markup = conn, slices.Contains(caps, "body-markup")
	if slices.Contains(caps, "actions") {
		n.listenClicks(conn)
	}
	return nil
}

// listenClicks opens the task of a clicked notification: the server sends
// ActionInvoked(id, action) on the connection the notification came from.
// The goroutine ends when the connection closes. The caller holds n.mu.
func (n *Notifier) listenClicks(conn *dbus.Conn) {
	if err := conn.AddMatchSignal(dbus.WithMatchInterface(notifyName), dbus.WithMatchMember("ActionInvoked")); err != nil {
		n.opts.Log.Warn("notifications: clicks will not open tasks", "err", err)
		return
	}
	ch := make(chan *dbus.Signal, 16)
	conn.Signal(ch)
	n.clickWG.Add(1)
	go func() {
		defer n.clickWG.Done()
		for sig := range ch {
			if sig.Name != notifyName+".ActionInvoked" || len(sig.Body) != 2 {
				continue
			}
			id, _ := sig.Body[0].(uint32)
			n.mu.Lock()
			taskID := n.sent[id]
			n.mu.Unlock()
			if taskID != "" && n.opts.Open != nil {
				n.opts.Log.Info("notification clicked", "task", taskID)
				n.opts.Open(taskID)
			}
		}
	}()
}

func (n *Notifier) unavailable(err error) {
	if n.warned {
		return
	}
	n.warned = true
	n.opts.Log.Warn("desktop notifications unavailable", "err", err)
}

// Hint asks the running loop (see Start) to check soon; it never blocks.
func (n *Notifier) Hint() {
	select {
	case n.hint <- struct{}{}:
	default:
	}
}

// Start checks once now and then every interval and on each Hint, until
// ctx ends or Close. Check errors are logged. Call it at most once.
func (n *Notifier) Start(ctx context.Context, interval time.Duration) {
	ctx, cancel := context.WithCancel(ctx)
	n.mu.Lock()
	n.cancel = cancel
	n.mu.Unlock()
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		var last string
		for {
			switch err := n.Check(ctx); {
			case err == nil || ctx.Err() != nil:
				last = ""
			case err.Error() != last:
				last = err.Error()
				n.opts.Log.Warn("notifications", "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			case <-n.hint:
			}
		}
	}()
}

// Close stops the loop and closes the bus connection.
func (n *Notifier) Close() {
	n.mu.Lock()
	cancel := n.cancel
	n.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	n.wg.Wait()
	n.mu.Lock()
	if n.conn != nil {
		n.conn.Close()
		n.conn = nil
	}
	n.mu.Unlock()
	n.clickWG.Wait()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
