package shell

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/systray"

	"github.com/boof-runner/boof-runner/app"
)

// TrayIcons are the tray images (PNG) for each state.
type TrayIcons struct {
	Idle, Running, Attention []byte
}

// Icon states reported by Tray.IconState.
const (
	IconIdle      = "idle"
	IconRunning   = "running"
	IconAttention = "attention"
)

// TrayState is what the tray shows.
type TrayState struct {
	WindowVisible bool
	RunnerEnabled bool
	// Running lists the running tasks, this process's first.
	Running []RunningTask
	// Review counts finished tasks waiting for the user's review.
	Review int
	// Attention counts tasks parked with questions.
	Attention int
	// Paused lists the tools paused by a usage limit.
	Paused []app.PausedTool
	// MergeQueue counts the merge queue's active entries.
	MergeQueue int
}

// RunningTask is a running task as the tray names it.
type RunningTask struct {
	ID, Title string
}

// equal reports whether s and o show the same.
func (s TrayState) equal(o TrayState) bool {
	return s.WindowVisible == o.WindowVisible && s.RunnerEnabled == o.RunnerEnabled &&
		s.Review == o.Review && s.Attention == o.Attention && s.MergeQueue == o.MergeQueue && slices.Equal(s.Running, o.Running) &&
		slices.EqualFunc(s.Paused, o.Paused, func(a, b app.PausedTool) bool { return a.Tool == b.Tool && a.Text == b.Text })
}

// TrayControls is what the tray menu acts on. Methods report their own
// failures (the tray has nowhere to show them).
type TrayControls interface {
	TrayState() TrayState
	ToggleWindow()
	NewTask()
	SetRunnerEnabled(on bool)
	StopTask(id string)
	ShowReview()
	// ResumeTool ends a tool's usage-limit pause now.
	ResumeTool(tool string)
	// ShowMergeQueue shows the window on the Merge queue screen.
	ShowMergeQueue()
	Quit()
}

// TrayOptions configure StartTray.
type TrayOptions struct {
	Icons TrayIcons
	// Interval is how often the tray refreshes on its own; zero means 2 s.
	Interval time.Duration
}

// The menu items, in menu order. itemStop stops the one running task;
// itemStopMenu holds one sub-item per running task when more than one runs.
const (
	itemShow = iota
	itemNewTask
	itemPause
	itemStop
	itemStopMenu
	itemReview
	itemMergeQueue
	itemQuit
	itemCount
)

// Clicks that are not a top-level item.
const (
	itemActivate = -1 // a left click on the icon (StatusNotifierItem.Activate)
	itemStopSub  = -2 // a sub-item of itemStopMenu; click.index says which
)

// click is one click the serve loop acts on.
type click struct{ item, index int }

// Tray is the system-tray icon and menu (a StatusNotifierItem with a
// com.canonical.dbusmenu menu on the session bus). The library keeps global
// state: start at most one Tray per process.
type Tray struct {
	c         TrayControls
	opts      TrayOptions
	end       func()
	hint      chan struct{}
	clicks    chan click
	ctx       context.Context
	cancel    context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once

	mu       sync.Mutex
	items    [itemCount]*systray.MenuItem
	labels   [itemCount]string
	hidden   [itemCount]bool
	stopID   string              // the task itemStop stops
	stopSubs []*systray.MenuItem // itemStopMenu's sub-items, grown as needed
	subIDs   []string            // the task each sub-item stops; "" hidden
	subLabel []string
	pauses   pauseItems // the paused tools' lines and Resume items
	last     TrayState
	shown    bool // Refresh ran once
	lastIcon string
}

// ErrTrayStarted is returned by a second StartTray in one process: the tray
// library keeps global state and cannot run twice.
var ErrTrayStarted = errors.New("tray already started in this process")

// trayStarted mirrors the tray library's own process-wide state; it is the
// one package-level variable here because that library allows one tray.
var trayStarted atomic.Bool

// StartTray exports the tray icon and menu on the session bus and serves
// clicks, periodic refreshes and hints until Close. It returns an error
// wrapping ErrNoSessionBus (and starts nothing) when no session bus can be
// reached, and ErrTrayStarted when a tray was started before in this
// process. A missing tray host is not an error: the item registers when one
// appears.
func StartTray(c TrayControls, opts TrayOptions) (*Tray, error) {
	probeCtx, cancelProbe := context.WithTimeout(context.Background(), 2*time.Second)
	probe, err := dialSession(probeCtx)
	cancelProbe()
	if err != nil {
		return nil, fmt.Errorf("start tray: %w", err)
	}
	probe.Close()
	if !trayStarted.CompareAndSwap(false, true) {
		return nil, fmt.Errorf("start tray: %w", ErrTrayStarted)
	}
	if opts.Interval <= 0 {
		opts.Interval = 2 * time.Second
	}
	t := &Tray{c: c, opts: opts, hint: make(chan struct{}, 1), clicks: make(chan click, 16)}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	// A left click (Activate) toggles the window; set before the item is
	// exported, so hosts read ItemIsMenu false and keep the menu for the
	// right click.
	systray.SetOnTapped(func() { t.send(click{item: itemActivate}) })
	ready := make(chan struct{})
	start, end := systray.RunWithExternalLoop(func() {
		systray.SetTitle("Boof Runner")
		systray.SetTooltip("Boof Runner")
		systray.SetIcon(opts.Icons.Idle)
		t.mu.Lock()
		t.items[itemShow] = systray.AddMenuItem("Hide window", "Show or hide the Boof Runner window")
		t.items[itemNewTask] = systray.AddMenuItem("New task…", "Open the New task form")
		systray.AddSeparator()
		t.items[itemPause] = systray.AddMenuItem("Pause runner", "Pause or resume the queue")
		t.addPauseItems()
		t.items[itemStop] = systray.AddMenuItem("Stop running task", "Stop the running task (its work is kept)")
		t.items[itemStopMenu] = systray.AddMenuItem("Stop a running task", "Stop one of the running tasks (its work is kept)")
		t.items[itemReview] = systray.AddMenuItem("Review queue", "Open the oldest finished task waiting for review")
		t.items[itemMergeQueue] = systray.AddMenuItem("Merge queue", "Open the Merge queue screen")
		systray.AddSeparator()
		t.items[itemQuit] = systray.AddMenuItem("Quit", "Stop running steps and quit")
		t.items[itemStopMenu].Hide()
		t.hidden[itemStopMenu] = true
		t.mu.Unlock()
		close(ready)
	}, nil)
	t.end = end
	start()
	<-ready
	t.Refresh()

	for i, it := range t.items {
		t.wg.Add(1)
		go t.forward(click{item: i}, it.ClickedCh)
	}
	t.wg.Add(1)
	go t.serve()
	return t, nil
}

// send queues a click for the serve loop; it never blocks (a flood of
// clicks drops the surplus).
func (t *Tray) send(c click) {
	select {
	case t.clicks <- c:
	default:
	}
}

// forward passes an item's clicks to the serve loop. The library drops a
// click when nobody is receiving, so each item has a receiver of its own
// that is never busy with anything else.
func (t *Tray) forward(c click, ch <-chan struct{}) {
	defer t.wg.Done()
	for {
		select {
		case <-t.ctx.Done():
			return
		case _, ok := <-ch:
			if !ok {
				return
			}
			select {
			case t.clicks <- c:
			case <-t.ctx.Done():
				return
			}
		}
	}
}

func (t *Tray) serve() {
	defer t.wg.Done()
	tick := time.NewTicker(t.opts.Interval)
	defer tick.Stop()
	for {
		select {
		case <-t.ctx.Done():
			return
		case c := <-t.clicks:
			t.act(c)
		case <-t.hint:
		case <-tick.C:
		}
		t.Refresh()
	}
}

func (t *Tray) act(c click) {
	switch c.item {
	case itemShow, itemActivate:
		t.c.ToggleWindow()
	case itemNewTask:
		t.c.NewTask()
	case itemPause:
		t.c.SetRunnerEnabled(!t.c.TrayState().RunnerEnabled)
	case itemStop:
		t.mu.Lock()
		id := t.stopID
		t.mu.Unlock()
		if id != "" {
			t.c.StopTask(id)
		}
	case itemStopSub:
		t.mu.Lock()
		id := ""
		if c.index < len(t.subIDs) {
			id = t.subIDs[c.index]
		}
		t.mu.Unlock()
		if id != "" {
			t.c.StopTask(id)
		}
	case itemResumeTool:
		if tool := t.pausedTool(c.index); tool != "" {
			t.c.ResumeTool(tool)
		}
	case itemReview:
		t.c.ShowReview()
	case itemMergeQueue:
		t.c.ShowMergeQueue()
	case itemQuit:
		t.c.Quit()
	}
}

// Hint asks the tray to refresh soon (call it on every tasks:changed or
// runner:status hint); it never blocks.
func (t *Tray) Hint() {
	select {
	case t.hint <- struct{}{}:
	default:
	}
}

// Refresh updates the icon and menu from the controls' state now.
func (t *Tray) Refresh() {
	st := t.c.TrayState()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.items[itemShow] == nil || (t.shown && st.equal(t.last)) {
		return
	}
	t.last, t.shown = st, true
	// The icon and the Stop items' state change before the labels, so a
	// host that sees a new label also sees the state that goes with it.
	icon, name, tip := t.opts.Icons.Idle, IconIdle, "Boof Runner: idle"
	switch {
	case st.Attention > 0:
		icon, name, tip = t.opts.Icons.Attention, IconAttention, fmt.Sprintf("Boof Runner: %d task(s) need an answer", st.Attention)
	case len(st.Running) == 1:
		icon, name, tip = t.opts.Icons.Running, IconRunning, "Boof Runner: running "+trimTitle(st.Running[0].Title)
	case len(st.Running) > 1:
		icon, name, tip = t.opts.Icons.Running, IconRunning, fmt.Sprintf("Boof Runner: %d tasks running", len(st.Running))
	}
	if !st.RunnerEnabled {
		tip += " (runner paused)"
	}
	tip += pauseTip(st.Paused)
	if name != t.lastIcon {
		systray.SetIcon(icon)
		t.lastIcon = name
	}
	systray.SetTooltip(tip)
	t.refreshStop(st.Running)
	t.refreshPauses(st.Paused)
	t.setLabel(itemShow, choose(st.WindowVisible, "Hide window", "Show window"))
	t.setLabel(itemPause, choose(st.RunnerEnabled, "Pause runner", "Resume runner"))
	t.setLabel(itemReview, fmt.Sprintf("Review queue (%d waiting)", st.Review))
	t.setLabel(itemMergeQueue, fmt.Sprintf("Merge queue (%d)", st.MergeQueue))
}

// refreshStop shows the one Stop item (disabled when idle, naming the task
// when one runs) or, when several run, the Stop submenu with one sub-item
// per task. A sub-item keeps its task while that task runs, so a click
// never lands on a task that moved under the pointer. The caller holds t.mu.
func (t *Tray) refreshStop(running []RunningTask) {
	stop := t.items[itemStop]
	if len(running) > 1 {
		t.setHidden(itemStop, true)
		t.stopID = ""
		t.assignSubs(running)
		t.setLabel(itemStopMenu, fmt.Sprintf("Stop a running task (%d running)", len(running)))
		t.setHidden(itemStopMenu, false)
		return
	}
	t.setHidden(itemStopMenu, true)
	t.assignSubs(nil)
	t.setHidden(itemStop, false)
	if len(running) == 0 {
		t.stopID = ""
		if !stop.Disabled() {
			stop.Disable()
		}
		t.setLabel(itemStop, "Stop running task")
		return
	}
	t.stopID = running[0].ID
	if stop.Disabled() {
		stop.Enable()
	}
	t.setLabel(itemStop, fmt.Sprintf("Stop “%s”", trimTitle(running[0].Title)))
}

// assignSubs gives each running task a sub-item of the Stop submenu,
// keeping the ones already assigned, and hides the rest. The caller holds
// t.mu.
func (t *Tray) assignSubs(running []RunningTask) {
	want := map[string]string{}
	for _, r := range running {
		want[r.ID] = r.Title
	}
	for i, id := range t.subIDs {
		if _, ok := want[id]; id != "" && !ok {
			t.subIDs[i] = ""
		}
	}
	for _, r := range running {
		i := slices.Index(t.subIDs, r.ID)
		if i < 0 {
			if i = slices.Index(t.subIDs, ""); i < 0 {
				i = t.addSub()
			}
			t.subIDs[i] = r.ID
		}
	}
	for i, id := range t.subIDs {
		sub := t.stopSubs[i]
		if id == "" {
			if t.subLabel[i] != "" {
				sub.Hide()
				t.subLabel[i] = ""
			}
			continue
		}
		label := fmt.Sprintf("Stop “%s”", trimTitle(want[id]))
		if t.subLabel[i] != label {
			if t.subLabel[i] == "" {
				sub.Show()
			}
			sub.SetTitle(label)
			t.subLabel[i] = label
		}
	}
}

// addSub adds a (hidden) sub-item to the Stop submenu and serves its
// clicks; it returns its index. The caller holds t.mu.
func (t *Tray) addSub() int {
	i := len(t.stopSubs)
	sub := t.items[itemStopMenu].AddSubMenuItem("", "Stop this task (its work is kept)")
	sub.Hide()
	t.stopSubs = append(t.stopSubs, sub)
	t.subIDs = append(t.subIDs, "")
	t.subLabel = append(t.subLabel, "")
	t.wg.Add(1)
	go t.forward(click{item: itemStopSub, index: i}, sub.ClickedCh)
	return i
}

// setHidden hides or shows a top-level item when that changes. The caller
// holds t.mu.
func (t *Tray) setHidden(item int, hide bool) {
	if t.hidden[item] == hide {
		return
	}
	t.hidden[item] = hide
	if hide {
		t.items[item].Hide()
	} else {
		t.items[item].Show()
	}
}

// setLabel changes an item's label only when it differs: each change is a
// DBus signal and a menu revision. The caller holds t.mu.
func (t *Tray) setLabel(item int, s string) {
	if t.labels[item] != s {
		t.labels[item] = s
		t.items[item].SetTitle(s)
	}
}

// IconState names the icon shown: IconIdle, IconRunning or IconAttention.
func (t *Tray) IconState() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastIcon
}

// Close stops serving and removes the tray icon from the bus; later calls
// do nothing. The tray library cannot start again in the same process.
func (t *Tray) Close() {
	t.closeOnce.Do(func() {
		t.cancel()
		t.wg.Wait()
		t.end()
	})
}

func choose(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

func trimTitle(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
