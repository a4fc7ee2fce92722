package pipeline

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/boof-runner/boof-runner/backend/agent"
	"github.com/boof-runner/boof-runner/backend/proc"
	"github.com/boof-runner/boof-runner/backend/task"
)

// watch follows one step attempt for session rotation: it keeps the
// attempt's last output for a handoff, counts its turns (tool calls) and
// its context estimate (the input tokens of its last model call), and
// stops the attempt once either passes settings.sessions' threshold.
type watch struct {
	// turnsMax and ctxMax are the thresholds (0 = off); armed is false
	// when the step has no rotation left (the watch then only keeps output).
	turnsMax int64
	ctxMax   int64
	armed    bool

	turns  atomic.Int64
	ctx    atomic.Int64
	reason atomic.Pointer[string]
	out    tail

	mu   sync.Mutex
	stop func()
}

// newWatch returns the watch of an attempt of tool: armed when the step
// may still rotate.
func (r *run) newWatch(tool string, armed bool) *watch {
	w := &watch{armed: armed, turnsMax: int64(r.set.Sessions.RotateAfterTurns)}
	if pct := r.set.Sessions.RotateContextPercent; pct > 0 && r.p.o.ContextWindow != nil {
		if win := r.p.o.ContextWindow(tool); win > 0 {
			w.ctxMax = win * int64(pct) / 100
		}
	}
	return w
}

// feed takes one event of the attempt.
func (w *watch) feed(e agent.Event) {
	w.out.add(e)
	switch e.Kind {
	case agent.EventToolCall:
		if n := w.turns.Add(1); w.turnsMax > 0 && n >= w.turnsMax {
			w.trip(task.RotateTurns)
		}
	case agent.EventUsage:
		if e.Usage == nil {
			return
		}
		c := e.Usage.InputTokens + e.Usage.CacheReadTokens + e.Usage.CacheWriteTokens
		w.ctx.Store(c)
		if w.ctxMax > 0 && c >= w.ctxMax {
			w.trip(task.RotateContext)
		}
	}
}

// trip stops the attempt for a rotation, once, when the watch is armed.
func (w *watch) trip(reason string) {
	if !w.armed || !w.reason.CompareAndSwap(nil, &reason) {
		return
	}
	w.mu.Lock()
	stop := w.stop
	w.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// started hands the watch the live attempt (a threshold passed before it
// started stops it at once).
func (w *watch) started(live agent.Run) {
	w.mu.Lock()
	w.stop = func() { live.Stop(proc.ReasonStopped) }
	w.mu.Unlock()
	if w.tripped() != "" {
		live.Stop(proc.ReasonStopped)
	}
}

// tripped returns why the watch stopped the attempt, "" when it did not.
func (w *watch) tripped() string {
	if p := w.reason.Load(); p != nil {
		return *p
	}
	return ""
}

// exhausted says why a failed attempt ran out of room: the watch's
// threshold, else the tool's own signal ("" when neither).
func exhausted(w *watch, res agent.Result) string {
	if why := w.tripped(); why != "" {
		return why
	}
	switch res.Exhausted {
	case agent.ExhaustedTurns:
		return task.RotateTurns
	case agent.ExhaustedContext:
		return task.RotateContext
	}
	return ""
}

// rotate starts the step's next attempt in a fresh session: it writes the
// handoff of the attempt that ran out of room, emits session_rotated and
// returns the handoff text for the next prompt.
func (r *run) rotate(ctx context.Context, s stepSpec, tool, model string, res agent.Result, w *watch, why string, n int) string {
	what := map[string]string{task.RotateTurns: "turns", task.RotateContext: "context window"}[why]
	text, path := r.writeHandoff(ctx, s, handoff{
		Reason: fmt.Sprintf("the %s session ran out of %s (%d turns, context estimate %d tokens)", tool, what, w.turns.Load(), w.ctx.Load()),
		From:   tool, To: tool, FromModel: model, FromSession: res.SessionID, Output: w.out.text(res),
	})
	where := ""
	if path != "" {
		where = " (handoff: " + path + ")"
	}
	max := r.set.Sessions.MaxRotations
	r.emit(0, task.SessionRotated{Step: s.name(), Role: s.execRole(), Tool: tool, Reason: why, Rotation: n, MaxRotations: max,
		FromSession: res.SessionID, Handoff: path},
		task.LevelWarn, fmt.Sprintf("Step %s: the %s session ran out of %s; rotating to a fresh session with a handoff (rotation %d of %d)%s",
			s.name(), tool, what, n, max, where))
	return text
}
