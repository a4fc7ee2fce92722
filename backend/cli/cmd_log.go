package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// followPoll is how often `log --follow` looks for new lines.
const followPoll = 250 * time.Millisecond

// logEvent is one line of `log --events`.
type logEvent struct {
	ID   int64          `json:"id"`
	At   time.Time      `json:"at"`
	Kind task.EventKind `json:"kind"`
	Data task.EventData `json:"data"`
}

// runLog prints a task's log ("<time> <level> <text>" per line, a text's
// further lines indented by two spaces) or, with
// --events, its stored events as JSON lines. With --follow it keeps
// printing while the task is queued or running and returns once it has
// settled in another status (or on interrupt).
func runLog(ctx context.Context, c *call) error {
	fs := c.newFlags()
	follow := fs.Bool("follow", false, "keep printing while the task is queued or running")
	fs.BoolVar(follow, "f", false, "short for --follow")
	events := fs.Bool("events", false, "print the task's structured events as JSON lines instead of its log")
	pos, err := parse(fs, c.args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one task ID")
	}
	s, _, err := c.openStoreRead(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := s.GetTask(ctx, pos[0]); err != nil {
		return err
	}
	p := &logPrinter{c: c, s: s, id: pos[0], events: *events, seen: map[int64]bool{}}
	for {
		// Read the status before the lines: what was written up to a final
		// status is printed before following stops.
		t, err := s.GetTask(ctx, p.id)
		if err != nil {
			return err
		}
		if err := p.drain(ctx); err != nil {
			return err
		}
		if !*follow || (t.Status != task.StatusOngoing && t.Status != task.StatusPending) {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(followPoll):
		}
	}
}

// logPrinter prints what it has not printed yet.
type logPrinter struct {
	c       *call
	s       *store.Store
	id      string
	events  bool
	afterID int64          // last log line printed
	since   time.Time      // time of the last event printed
	seen    map[int64]bool // events printed at or after since
}

func (p *logPrinter) drain(ctx context.Context) error {
	w := p.c.io.Stdout
	if p.events {
		evs, err := p.s.Events(ctx, p.id, p.since)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(w)
		for _, e := range evs {
			if p.seen[e.ID] {
				continue
			}
			p.seen[e.ID] = true
			p.since = e.At
			if err := enc.Encode(logEvent{ID: e.ID, At: e.At, Kind: e.Kind(), Data: e.Data}); err != nil {
				return err
			}
		}
		return nil
	}
	for {
		lines, err := p.s.Log(ctx, p.id, p.afterID, 1000)
		if err != nil {
			return err
		}
		for _, l := range lines {
			text := strings.ReplaceAll(strings.TrimRight(l.Text, "\n"), "\n", "\n  ") // continuation lines indented
			if _, err := fmt.Fprintf(w, "%s %-5s %s\n", l.At.UTC().Format("2006-01-02T15:04:05.000Z"), l.Level, text); err != nil {
				return err
			}
			p.afterID = l.ID
		}
		if len(lines) < 1000 {
			return nil
		}
	}
}
