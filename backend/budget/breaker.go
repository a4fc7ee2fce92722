package budget

import (
	"fmt"
	"hash/maphash"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/task"
)

// BreakerPrefix starts the reason of the status change of a task a circuit
// breaker stopped ("circuit_broken:repeat_failure").
const BreakerPrefix = "circuit_broken:"

// editTools are the tool names (lower case) of the agents' file-editing
// tools: a call of one is a file change for the no-progress breaker.
var editTools = map[string]bool{"write": true, "edit": true, "multiedit": true, "notebookedit": true,
	"apply_patch": true, "patch": true, "str_replace": true, "create": true, "file_change": true}

// velocityMeasure is the span over which token velocity is measured.
const velocityMeasure = time.Minute

// Breakers watches one step's typed events and trips a circuit breaker of
// settings.breakers: too many tool calls, the same tool call failing with
// the same error in a row, tool results that make no progress, or tokens
// spent too fast. It reads typed fields only (tool names, call inputs,
// error flags, usage counts), never rendered text. It is not safe for
// concurrent use: a step's events arrive from one goroutine.
type Breakers struct {
	cfg   settings.Breakers
	step  string
	start time.Time
	seed  maphash.Seed

	calls   int64
	pending map[string]call // call id → call, until its result
	last    call            // the latest call
	// repeat counts the consecutive failures of sig with error errText.
	repeat  int64
	sig     string
	errText string
	// stale counts the consecutive results without progress.
	stale int64
	seen  map[uint64]bool // hashes of successful outputs seen
	// samples are (time, cumulative tokens) of the last minute, oldest first.
	samples []sample
	tripped bool
}

type call struct{ tool, input string }

type sample struct {
	at     time.Time
	tokens int64
}

// NewBreakers returns the breakers of a step (name: its token in logs)
// that started at start.
func NewBreakers(cfg settings.Breakers, step string, start time.Time) *Breakers {
	return &Breakers{cfg: cfg, step: step, start: start, seed: maphash.MakeSeed(),
		pending: map[string]call{}, seen: map[uint64]bool{}}
}

// ToolCall records a tool call; it returns the trip of the tool-call
// breaker at the step's Nth call, nil otherwise.
func (b *Breakers) ToolCall(tool, callID, input string) *task.CircuitBroken {
	c := call{tool: tool, input: input}
	b.last = c
	if callID != "" {
		b.pending[callID] = c
	}
	b.calls++
	if b.cfg.ToolCalls > 0 && b.calls >= int64(b.cfg.ToolCalls) {
		return b.trip(task.CircuitBroken{Breaker: task.BreakerToolCalls, Limit: int64(b.cfg.ToolCalls), Count: b.calls,
			Tool: c.tool, Input: clipText(c.input)},
			fmt.Sprintf("%d tool calls in one step (limit %d)", b.calls, b.cfg.ToolCalls))
	}
	return nil
}

// ToolResult records a tool result; it returns the trip of the
// repeat-failure or the no-progress breaker, nil otherwise.
func (b *Breakers) ToolResult(callID, output string, isError bool) *task.CircuitBroken {
	c, ok := b.pending[callID]
	if ok {
		delete(b.pending, callID)
	} else {
		c = b.last
	}
	sig := c.tool + "\x00" + c.input
	if isError {
		if b.repeat > 0 && sig == b.sig && output == b.errText {
			b.repeat++
		} else {
			b.repeat, b.sig, b.errText = 1, sig, output
		}
	} else {
		b.repeat = 0
	}
	if n := int64(b.cfg.RepeatFailures); n > 0 && b.repeat >= n {
		return b.trip(task.CircuitBroken{Breaker: task.BreakerRepeatFailure, Limit: n, Count: b.repeat,
			Tool: c.tool, Input: clipText(c.input), Error: clipText(output)},
			fmt.Sprintf("%s %q failed %d times in a row with the same error", c.tool, clipText(c.input), b.repeat))
	}
	progress := editTools[strings.ToLower(c.tool)]
	if !isError {
		h := maphash.String(b.seed, output)
		if !b.seen[h] {
			b.seen[h] = true
			progress = true
		}
	}
	if progress {
		b.stale = 0
		return nil
	}
	b.stale++
	if n := int64(b.cfg.NoProgress); n > 0 && b.stale >= n {
		return b.trip(task.CircuitBroken{Breaker: task.BreakerNoProgress, Limit: n, Count: b.stale,
			Tool: c.tool, Input: clipText(c.input)},
			fmt.Sprintf("%d tool results in a row changed no file and gave no new output", b.stale))
	}
	return nil
}

// Usage records the step's tokens so far (cumulative) at at; it returns the
// trip of the token-velocity breaker once the step ran the velocity window,
// nil otherwise.
func (b *Breakers) Usage(tokens int64, at time.Time) *task.CircuitBroken {
	b.samples = append(b.samples, sample{at: at, tokens: tokens})
	// Keep one sample at or before the start of the measured minute.
	cut := 0
	for cut+1 < len(b.samples) && !b.samples[cut+1].at.After(at.Add(-velocityMeasure)) {
		cut++
	}
	b.samples = b.samples[cut:]
	limit := b.cfg.TokensPerMinute
	ran := at.Sub(b.start)
	if limit <= 0 || ran < time.Duration(b.cfg.VelocityWindowMs)*time.Millisecond {
		return nil
	}
	from, base := b.start, int64(0)
	if ran > velocityMeasure {
		// The measured minute starts at the latest sample before it (or,
		// when there is none, at the oldest sample: never an overestimate).
		s0 := b.samples[0]
		from, base = s0.at, s0.tokens
		if edge := at.Add(-velocityMeasure); !s0.at.After(edge) {
			from = edge
		}
	}
	span := at.Sub(from)
	if span <= 0 {
		return nil
	}
	used := tokens - base
	perMin := int64(float64(used) / span.Minutes())
	if perMin <= limit {
		return nil
	}
	return b.trip(task.CircuitBroken{Breaker: task.BreakerTokenVelocity, Limit: limit, Count: perMin, Tokens: used, WindowMs: span.Milliseconds()},
		fmt.Sprintf("%s tokens in %s, %s tokens/min (limit %s)", Thousands(used), span.Round(time.Millisecond), Thousands(perMin), Thousands(limit)))
}

// trip fills the step and the reason of a trip; only the first trip of a
// step is returned.
func (b *Breakers) trip(c task.CircuitBroken, why string) *task.CircuitBroken {
	if b.tripped {
		return nil
	}
	b.tripped = true
	c.Step = b.step
	c.Reason = BreakerPrefix + string(c.Breaker) + ": " + why
	return &c
}

// clipText keeps evidence short: at most 300 bytes, on a rune boundary.
func clipText(s string) string {
	if len(s) <= 300 {
		return s
	}
	return strings.ToValidUTF8(s[:300], "") + "…"
}
