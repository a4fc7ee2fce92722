package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/host"
	"github.com/boof-runner/boof-runner/backend/secrets"
	"github.com/boof-runner/boof-runner/backend/settings"
	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// The runner status names the tools paused by a usage limit as the window
// shows them, and the user can resume one early.
func TestRunServiceShowsAndResumesPausedTools(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "boof.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	until := time.Now().Add(2 * time.Hour)
	if _, err := st.PauseTool(ctx, task.ToolPause{Tool: "claude-code", Until: until, Reason: "usage limit"}); err != nil {
		t.Fatal(err)
	}
	rec := &RecordingEmitter{}
	live := NewLiveOutput(rec, secrets.Scrub, time.Now, 0)
	defer live.Close()
	sf := settings.NewFile(filepath.Join(t.TempDir(), "settings.json"), host.Catalog())
	run := NewRunService(st, LockedRunner(st, "process 42 runs the queue", nil), sf, live, rec, context.Background)
	s, err := run.Status()
	if err != nil || len(s.Paused) != 1 || s.Paused[0].Tool != "claude-code" ||
		!strings.HasPrefix(s.Paused[0].Text, "claude-code paused until ") || !strings.HasSuffix(s.Paused[0].Text, "(usage limit)") {
		t.Fatalf("status %+v %v", s.Paused, err)
	}
	s, err = run.ResumeTool("claude-code")
	if err != nil || len(s.Paused) != 0 {
		t.Fatalf("resume: %+v %v", s.Paused, err)
	}
	if _, err := run.ResumeTool("claude-code"); err == nil || !strings.Contains(err.Error(), "The tool claude-code is not paused") {
		t.Fatalf("second resume: %v", err)
	}
}
