package app

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// answeringEmitter plays the front end: it answers every ui:snapshot.
type answeringEmitter struct {
	d    *DiagService
	text string
}

func (a *answeringEmitter) Emit(name string, payload ...any) {
	if name == EventUISnapshot && a.text != "" {
		go a.d.Snapshot(payload[0].(int), a.text)
	}
}

func TestDiagReportErrorLogsAtErrorLevel(t *testing.T) {
	var buf bytes.Buffer
	d := NewDiagService(slog.New(slog.NewTextHandler(&buf, nil)), &RecordingEmitter{}, context.Background)
	if err := d.ReportError(FrontendError{Kind: "error", Message: "x is undefined", Source: "app.js", Line: 3, Stack: strings.Repeat("s", 10000)}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "level=ERROR") || !strings.Contains(out, `message="x is undefined"`) || !strings.Contains(out, "line=3") {
		t.Fatalf("log: %s", out)
	}
	if len(out) > 5000 {
		t.Fatalf("stack not clipped: %d bytes", len(out))
	}
}

func TestDiagProbeGetsTheFrontEndsAnswer(t *testing.T) {
	em := &answeringEmitter{text: "Tasks\nNew task"}
	d := NewDiagService(slog.New(slog.DiscardHandler), em, context.Background)
	em.d = d
	seq, text, err := ProbeScreen(context.Background(), d, 10*time.Second)
	if err != nil || seq != 1 || text != "Tasks\nNew task" {
		t.Fatalf("probe: %d %q %v", seq, text, err)
	}
	em.text = "" // a front end that does not answer
	if _, _, err := ProbeScreen(context.Background(), d, 50*time.Millisecond); !errors.Is(err, ErrNoSnapshot) {
		t.Fatalf("silent front end: %v", err)
	}
	if err := d.Snapshot(2, "late"); err != nil { // a late answer is dropped
		t.Fatal(err)
	}
}
