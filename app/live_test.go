package app

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/boof-runner/boof-runner/backend/task"
)

func TestLiveOutputBatchesAndBounds(t *testing.T) {
	rec := &RecordingEmitter{}
	// A long interval: the only flush is Close's, so the whole burst is one batch.
	l := NewLiveOutput(rec, func(s string) string { return strings.ReplaceAll(s, "sk-secret", "[REDACTED]") }, time.Now, time.Hour)
	chunk := bytes.Repeat([]byte("x"), 4096)
	for i := 0; i < 2560; i++ { // 10 MiB in 4 KiB chunks
		l.Write("t1", chunk)
	}
	l.Add("t1", FeedItem{Role: task.RoleDeveloper, Data: task.AgentText{Text: "token sk-secret here"}})
	l.Close()
	snap := l.Snapshot("t1")
	if len(snap.Terminal) != termKeep {
		t.Fatalf("terminal kept %d bytes, want %d", len(snap.Terminal), termKeep)
	}
	if snap.TranscriptBytes != 10<<20 {
		t.Fatalf("bytes seen %d", snap.TranscriptBytes)
	}
	if len(snap.Feed) != 1 || snap.Feed[0].Data != (task.AgentText{Text: "token [REDACTED] here"}) || snap.Feed[0].Kind != task.EventText || snap.Feed[0].Seq != 1 {
		t.Fatalf("feed %+v", snap.Feed)
	}
	names := rec.Names()
	if len(names) != 1 || names[0] != EventTaskOutputPrefix+"t1" {
		t.Fatalf("events %v, want one batch", names)
	}
	b := rec.Payloads[0][0].(OutputBatch)
	if len(b.Terminal) != termKeep || len(b.Feed) != 1 {
		t.Fatalf("batch carries %d bytes and %d items", len(b.Terminal), len(b.Feed))
	}
}

func TestLiveOutputUTF8AcrossChunksAndInvalidBytes(t *testing.T) {
	l := NewLiveOutput(&RecordingEmitter{}, func(s string) string { return s }, time.Now, 0)
	defer l.Close()
	e := []byte("é") // two bytes
	l.Write("t", []byte{'a', e[0]})
	l.Write("t", []byte{e[1], 'b', 0xff, 'c'})
	if got := l.Snapshot("t").Terminal; got != "aéb\uFFFDc" {
		t.Fatalf("terminal %q", got)
	}
}

func TestLiveOutputFeedIsBounded(t *testing.T) {
	l := NewLiveOutput(&RecordingEmitter{}, func(s string) string { return s }, time.Now, 0)
	defer l.Close()
	for i := 0; i < feedKeep+500; i++ {
		l.Add("t", FeedItem{Data: task.AgentText{Text: "line"}})
	}
	snap := l.Snapshot("t")
	if len(snap.Feed) != feedKeep || snap.Feed[len(snap.Feed)-1].Seq != feedKeep+500 {
		t.Fatalf("feed len %d last seq %d", len(snap.Feed), snap.Feed[len(snap.Feed)-1].Seq)
	}
	l.Forget("t")
	if len(l.Snapshot("t").Feed) != 0 {
		t.Fatal("forget kept the feed")
	}
}
