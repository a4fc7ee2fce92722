package app

import (
	"context"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

// PauseReader reads the tools paused by a usage limit; *store.Store has it.
type PauseReader interface {
	ToolPauses(ctx context.Context, now time.Time) ([]task.ToolPause, error)
}

// PausedTools returns the tools paused at now as the window and the tray
// show them ("claude-code paused until 14:05 (usage limit)", in loc).
func PausedTools(ctx context.Context, st PauseReader, now time.Time, loc *time.Location) ([]PausedTool, error) {
	ps, err := st.ToolPauses(ctx, now)
	if err != nil {
		return nil, err
	}
	out := make([]PausedTool, 0, len(ps))
	for _, p := range ps {
		out = append(out, PausedTool{Tool: p.Tool, Until: p.Until, Text: p.Describe(now, loc), Warning: p.Warning})
	}
	return out, nil
}
