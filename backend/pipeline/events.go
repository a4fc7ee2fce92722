package pipeline

import (
	"context"
	"fmt"
	"strings"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/task"
)

// emit records one typed event of the run. Its free text is scrubbed; a
// stored kind goes to the task's history; logText, when not empty, is the
// event's line in the task's log (human text, never read back); and the
// same value goes to Hooks.OnEvent, so the live feed and the history show
// one event.
func (r *run) emit(execID int64, d task.EventData, level task.LogLevel, logText string) {
	d = task.MapText(d, secrets.Scrub)
	if d.Kind().Stored() {
		ctx, cancel := context.WithTimeout(context.Background(), finalWriteTimeout)
		err := r.st.AppendEvent(ctx, r.t.ID, d)
		cancel()
		if err != nil {
			r.p.o.Logger.Warn("pipeline: cannot store event", "task", r.t.ID, "kind", d.Kind(), "err", err)
		}
	}
	if logText != "" {
		r.logLine(execID, level, logText)
	}
	if h := r.p.o.Hooks.OnEvent; h != nil {
		h(r.t.ID, execID, task.Event{TaskID: r.t.ID, At: r.p.o.Now().UTC(), Data: d})
	}
}

// announce hands an event that is already stored (written in the same
// transaction as the state it records) to Hooks.OnEvent only.
func (r *run) announce(d task.EventData) {
	if h := r.p.o.Hooks.OnEvent; h != nil {
		h(r.t.ID, 0, task.Event{TaskID: r.t.ID, At: r.p.o.Now().UTC(), Data: d})
	}
}

// logf writes a plain line to the run's log: an event of kind task.EventNote.
func (r *run) logf(level task.LogLevel, format string, args ...any) {
	r.note(0, level, fmt.Sprintf(format, args...))
}

// note writes a plain line of a step (or of the run, execID 0) to the log.
func (r *run) note(execID int64, level task.LogLevel, text string) {
	r.emit(execID, task.Note{Level: level, Text: text}, level, text)
}

// logLine stores one scrubbed line in the task's log and hands it to
// Hooks.OnLog.
func (r *run) logLine(execID int64, level task.LogLevel, text string) {
	text = secrets.Scrub(text)
	ctx, cancel := context.WithTimeout(context.Background(), finalWriteTimeout)
	defer cancel()
	if err := r.st.AppendLog(ctx, r.t.ID, execID, level, text); err != nil {
		r.p.o.Logger.Warn("pipeline: cannot store log line", "task", r.t.ID, "err", err)
	}
	if h := r.p.o.Hooks.OnLog; h != nil {
		h(r.t.ID, execID, level, text)
	}
}

// wlog is the worktree package's log function.
func (r *run) wlog(level task.LogLevel, format string, args ...any) {
	r.note(0, level, fmt.Sprintf(format, args...))
}

// onEvent forwards one event of the agent's stream as the task event of its
// kind, with its line in the log. Raw lines the adapter did not understand
// go to the log only; the session id nowhere.
func (r *run) onEvent(execID int64, e agent.Event) {
	switch e.Kind {
	case agent.EventText:
		if e.Text != "" {
			r.emit(execID, task.AgentText{Text: e.Text}, task.LevelInfo, e.Text)
		}
	case agent.EventToolCall:
		r.emit(execID, task.ToolCall{Tool: e.Tool, CallID: e.CallID, Input: e.Text}, task.LevelInfo, "→ "+e.Tool+" "+clip(e.Text, 500))
	case agent.EventToolResult:
		level := task.LevelDebug
		if e.IsError {
			level = task.LevelWarn
		}
		r.emit(execID, task.ToolResult{CallID: e.CallID, Output: e.Text, IsError: e.IsError}, level, clip(e.Text, 500))
	case agent.EventRetry:
		r.emit(execID, task.ToolRetry{Attempt: e.Attempt, MaxAttempts: e.MaxAttempts, DelayMs: e.RetryDelayMs, ErrorStatus: e.ErrorStatus, Message: e.Text},
			task.LevelWarn, fmt.Sprintf("tool retrying after API error %d (attempt %d/%d)", e.ErrorStatus, e.Attempt, e.MaxAttempts))
	case agent.EventQuestion:
		if e.Text != "" {
			r.emit(execID, task.AgentQuestion{Text: e.Text}, task.LevelInfo, "Question: "+e.Text)
		}
	case agent.EventUsage:
		if e.Usage != nil {
			r.emit(execID, task.UsageReport{Usage: taskUsage(*e.Usage)}, "", "")
		}
	case agent.EventRaw:
		if e.Text != "" {
			r.logLine(execID, task.LevelDebug, clip(e.Text, 2000))
		}
	}
}

// taskUsage converts an agent's usage; a cost the tool did not report is 0.
func taskUsage(u agent.Usage) task.Usage {
	tu := task.Usage{TokensIn: u.InputTokens, TokensOut: u.OutputTokens, CacheRead: u.CacheReadTokens, CacheWrite: u.CacheWriteTokens}
	if u.CostKnown {
		tu.CostUSD = u.CostUSD
	}
	return tu
}

// clip shortens s to about n bytes without splitting a character.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
