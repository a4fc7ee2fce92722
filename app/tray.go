package app

import (
	"fmt"
	"sync"

	"fyne.io/systray"
)

// TrayIcons are the tray images for each state.
type TrayIcons struct {
	Idle, Running, Attention []byte
}

// TrayState is what the tray shows.
type TrayState struct {
	WindowVisible bool
	RunnerEnabled bool
	// RunningID and RunningTitle name the running task; empty when idle.
	RunningID, RunningTitle string
	// Review counts finished tasks waiting for the user's review.
	Review int
	// Attention counts tasks parked with questions.
	Attention int
}

// TrayControls is what the tray menu acts on.
type TrayControls interface {
	TrayState() TrayState
	ToggleWindow()
	NewTask()
	SetRunnerEnabled(on bool)
	StopTask(id string)
	ShowReview()
	Quit()
}

// Tray is the system-tray icon and menu (StatusNotifierItem over DBus on
// Linux). Only one exists per process: the library keeps global state.
type Tray struct {
	c     TrayControls
	icons TrayIcons
	end   func()

	mu                                     sync.Mutex
	show, newTask, pause, stop, review, qt *systray.MenuItem
	last                                   TrayState
	lastIcon                               string
}

// StartTray registers the tray icon and menu and serves clicks until Close.
func StartTray(c TrayControls, icons TrayIcons) *Tray {
	t := &Tray{c: c, icons: icons}
	ready := make(chan struct{})
	start, end := systray.RunWithExternalLoop(func() {
		systray.SetTitle("Boof Runner")
		systray.SetTooltip("Boof Runner")
		systray.SetIcon(icons.Idle)
		t.mu.Lock()
		t.show = systray.AddMenuItem("Hide window", "Show or hide the Boof Runner window")
		t.newTask = systray.AddMenuItem("New task…", "Open the New task form")
		systray.AddSeparator()
		t.pause = systray.AddMenuItem("Pause runner", "Pause or resume the queue")
		t.stop = systray.AddMenuItem("Stop running task", "Stop the running task (its work is kept)")
		t.review = systray.AddMenuItem("Review queue", "Finished tasks waiting for review")
		systray.AddSeparator()
		t.qt = systray.AddMenuItem("Quit", "Stop running steps and quit")
		t.mu.Unlock()
		close(ready)
	}, nil)
	t.end = end
	start()
	<-ready
	t.Refresh()
	go t.serve()
	return t
}

func (t *Tray) serve() {
	for {
		select {
		case <-t.show.ClickedCh:
			t.c.ToggleWindow()
		case <-t.newTask.ClickedCh:
			t.c.NewTask()
		case <-t.pause.ClickedCh:
			t.c.SetRunnerEnabled(!t.c.TrayState().RunnerEnabled)
		case <-t.stop.ClickedCh:
			if st := t.c.TrayState(); st.RunningID != "" {
				t.c.StopTask(st.RunningID)
			}
		case <-t.review.ClickedCh:
			t.c.ShowReview()
		case <-t.qt.ClickedCh:
			t.c.Quit()
			return
		}
		t.Refresh()
	}
}

// Refresh updates the icon and menu from the controls' state.
func (t *Tray) Refresh() {
	st := t.c.TrayState()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.show == nil || (st == t.last && t.lastIcon != "") {
		return
	}
	t.last = st
	if st.WindowVisible {
		t.show.SetTitle("Hide window")
	} else {
		t.show.SetTitle("Show window")
	}
	if st.RunnerEnabled {
		t.pause.SetTitle("Pause runner")
	} else {
		t.pause.SetTitle("Resume runner")
	}
	if st.RunningID == "" {
		t.stop.SetTitle("Stop running task")
		t.stop.Disable()
	} else {
		t.stop.SetTitle(fmt.Sprintf("Stop “%s”", trimTitle(st.RunningTitle)))
		t.stop.Enable()
	}
	t.review.SetTitle(fmt.Sprintf("Review queue (%d waiting)", st.Review))
	icon, name, tip := t.icons.Idle, "idle", "Boof Runner: idle"
	switch {
	case st.Attention > 0:
		icon, name, tip = t.icons.Attention, "attention", fmt.Sprintf("Boof Runner: %d task(s) need an answer", st.Attention)
	case st.RunningID != "":
		icon, name, tip = t.icons.Running, "running", "Boof Runner: running "+trimTitle(st.RunningTitle)
	}
	if name != t.lastIcon {
		systray.SetIcon(icon)
		t.lastIcon = name
	}
	systray.SetTooltip(tip)
}

// IconState names the icon shown: idle, running or attention.
func (t *Tray) IconState() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastIcon
}

// Close removes the tray icon.
func (t *Tray) Close() {
	if t.end != nil {
		t.end()
	}
}

func trimTitle(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
