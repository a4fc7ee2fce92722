package shell

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/systray"
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
	// RunningID and RunningTitle name the running task; empty when idle.
	RunningID, RunningTitle string
	// OtherRunning counts further running tasks (concurrency above one).
	OtherRunning int
	// Review counts finished tasks waiting for the user's review.
	Review int
	// Attention counts tasks parked with questions.
	Attention int
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
	Quit()
}

// TrayOptions configure StartTray.
type TrayOptions struct {
	Icons TrayIcons
	// Interval is how often the tray refreshes on its own; zero means 2 s.
	Interval time.Duration
}

// The menu items, in menu order.
const (
	itemShow = iota
	itemNewTask
	itemPause
	itemStop
	itemReview
	itemQuit
	itemCount
)

// Tray is the system-tray icon and menu (a StatusNotifierItem with a
// com.canonical.dbusmenu menu on the session bus). The library keeps global
// state: start at most one Tray per process.
type Tray struct {
	c         TrayControls
	opts      TrayOptions
	end       func()
	hint      chan struct{}
	clicks    chan int
	cancel    context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once

	mu       sync.Mutex
	items    [itemCount]*systray.MenuItem
	labels   [itemCount]string
	last     TrayState
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
	t := &Tray{c: c, opts: opts, hint: make(chan struct{}, 1), clicks: make(chan int, 16)}
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
		t.items[itemStop] = systray.AddMenuItem("Stop running task", "Stop the running task (its work is kept)")
		t.items[itemReview] = systray.AddMenuItem("Review queue", "Finished tasks waiting for review")
		systray.AddSeparator()
		t.items[itemQuit] = systray.AddMenuItem("Quit", "Stop running steps and quit")
		t.mu.Unlock()
		close(ready)
	}, nil)
	t.end = end
	start()
	<-ready
	t.Refresh()

	ctx, cancel := context.WithCancel(context.Background())
	t.cancel = cancel
	for i, it := range t.items {
		t.wg.Add(1)
		go t.forward(ctx, i, it.ClickedCh)
	}
	t.wg.Add(1)
	go t.serve(ctx)
	return t, nil
}

// forward passes an item's clicks to the serve loop. The library drops a
// click when nobody is receiving, so each item has a receiver of its own
// that is never busy with anything else.
func (t *Tray) forward(ctx context.Context, item int, ch <-chan struct{}) {
	defer t.wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-ch:
			if !ok {
				return
			}
			select {
			case t.clicks <- item:
			case <-ctx.Done():
				return
			}
		}
	}
}

func (t *Tray) serve(ctx context.Context) {
	defer t.wg.Done()
	tick := time.NewTicker(t.opts.Interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case item := <-t.clicks:
			t.act(item)
		case <-t.hint:
		case <-tick.C:
		}
		t.Refresh()
	}
}

func (t *Tray) act(item int) {
	switch item {
	case itemShow:
		t.c.ToggleWindow()
	case itemNewTask:
		t.c.NewTask()
	case itemPause:
		t.c.SetRunnerEnabled(!t.c.TrayState().RunnerEnabled)
	case itemStop:
		if st := t.c.TrayState(); st.RunningID != "" {
			t.c.StopTask(st.RunningID)
		}
	case itemReview:
		t.c.ShowReview()
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
	if t.items[itemShow] == nil || (st == t.last && t.lastIcon != "") {
		return
	}
	t.last = st
	// The icon and the Stop item's state change before the labels, so a
	// host that sees a new label also sees the state that goes with it.
	icon, name, tip := t.opts.Icons.Idle, IconIdle, "Boof Runner: idle"
	switch {
	case st.Attention > 0:
		icon, name, tip = t.opts.Icons.Attention, IconAttention, fmt.Sprintf("Boof Runner: %d task(s) need an answer", st.Attention)
	case st.RunningID != "":
		icon, name, tip = t.opts.Icons.Running, IconRunning, "Boof Runner: running "+trimTitle(st.RunningTitle)
	}
	if !st.RunnerEnabled {
		tip += " (runner paused)"
	}
	if name != t.lastIcon {
		systray.SetIcon(icon)
		t.lastIcon = name
	}
	systray.SetTooltip(tip)

	stop := t.items[itemStop]
	if st.RunningID == "" {
		if !stop.Disabled() {
			stop.Disable()
		}
		t.setLabel(itemStop, "Stop running task")
	} else {
		if stop.Disabled() {
			stop.Enable()
		}
		label := fmt.Sprintf("Stop “%s”", trimTitle(st.RunningTitle))
		if st.OtherRunning > 0 {
			label += fmt.Sprintf(" (%d more running)", st.OtherRunning)
		}
		t.setLabel(itemStop, label)
	}
	t.setLabel(itemShow, choose(st.WindowVisible, "Hide window", "Show window"))
	t.setLabel(itemPause, choose(st.RunnerEnabled, "Pause runner", "Resume runner"))
	t.setLabel(itemReview, fmt.Sprintf("Review queue (%d waiting)", st.Review))
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
