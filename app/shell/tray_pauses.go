package shell

import (
	"fmt"
	"strings"

	"fyne.io/systray"

	"github.com/boof-runner/boof-runner/app"
)

// pauseSlots is how many paused tools the menu names, each with a line
// ("claude-code paused until 14:05 (usage limit)", disabled) and a
// "Resume claude-code now" item; the tooltip names them all.
const pauseSlots = 4

// itemResumeTool is a click on the Resume item of pause slot click.index.
const itemResumeTool = -3

// pauseItems are the menu's paused-tool slots, hidden while unused.
type pauseItems struct {
	lines, resumes []*systray.MenuItem
	tools          []string // the tool each slot shows; "" unused
	labels         []string // the line each slot shows
}

// addPauseItems adds the hidden paused-tool slots at the current menu
// position and serves their Resume clicks. It runs in the tray's setup,
// with t.mu held.
func (t *Tray) addPauseItems() {
	p := &t.pauses
	for i := range pauseSlots {
		line := systray.AddMenuItem("", "This tool waits for its usage limit to reset")
		line.Disable()
		line.Hide()
		res := systray.AddMenuItem("", "Let this tool run again now (it may hit its limit again)")
		res.Hide()
		p.lines, p.resumes = append(p.lines, line), append(p.resumes, res)
		p.tools, p.labels = append(p.tools, ""), append(p.labels, "")
		t.wg.Add(1)
		go t.forward(click{item: itemResumeTool, index: i}, res.ClickedCh)
	}
}

// refreshPauses shows one line and one Resume item per paused tool. The
// caller holds t.mu.
func (t *Tray) refreshPauses(paused []app.PausedTool) {
	p := &t.pauses
	for i := range p.lines {
		tool, label := "", ""
		if i < len(paused) {
			tool, label = paused[i].Tool, paused[i].Text
			if i == len(p.lines)-1 && len(paused) > len(p.lines) {
				label += fmt.Sprintf(" (and %d more: see the window)", len(paused)-len(p.lines))
			}
		}
		if tool == p.tools[i] && label == p.labels[i] {
			continue
		}
		if tool == "" {
			p.lines[i].Hide()
			p.resumes[i].Hide()
		} else {
			p.lines[i].SetTitle(label)
			p.resumes[i].SetTitle("Resume " + tool + " now")
			if p.tools[i] == "" {
				p.lines[i].Show()
				p.resumes[i].Show()
			}
		}
		p.tools[i], p.labels[i] = tool, label
	}
}

// pausedTool is the tool pause slot i shows ("" none).
func (t *Tray) pausedTool(i int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if i < 0 || i >= len(t.pauses.tools) {
		return ""
	}
	return t.pauses.tools[i]
}

// pauseTip is the tooltip's part about paused tools: "; claude-code
// paused until 14:05 (usage limit)", one clause per tool.
func pauseTip(paused []app.PausedTool) string {
	var b strings.Builder
	for _, p := range paused {
		b.WriteString("; ")
		b.WriteString(p.Text)
	}
	return b.String()
}

// ResumeTool ends a tool's usage-limit pause now (the tray's "Resume
// claude-code now"); a failure is logged.
func (d *Desktop) ResumeTool(tool string) {
	if err := d.d.Run.ResumeTool(tool); err != nil {
		d.d.Log.Error("tray: resume tool", "tool", tool, "err", err)
	}
}
