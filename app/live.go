package app

import (
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/boof-runner/boof-runner/backend/task"
)

// FeedItem is one entry of a running task's feed: a typed event (Kind and
// its payload Data, as declared in backend/task) and the role of the step it
// belongs to ("" for the run as a whole).
type FeedItem struct {
	Seq  int64          `json:"seq"`
	At   time.Time      `json:"at"`
	Role task.Role      `json:"role" tstype:"Role | ''"` // "" for the run: no constant says so
	Kind task.EventKind `json:"kind"`
	Data task.EventData `json:"data"`
}

// OutputBatch is what one task:output:<id> event carries.
type OutputBatch struct {
	TaskID   string     `json:"task_id"`
	Feed     []FeedItem `json:"feed"`
	Terminal string     `json:"terminal"`
}

// OutputSnapshot is the current output of a task's running step.
type OutputSnapshot struct {
	TaskID          string     `json:"task_id"`
	Feed            []FeedItem `json:"feed"`
	Terminal        string     `json:"terminal"`
	TranscriptBytes int64      `json:"transcript_bytes"`
}

// Live-output bounds: the UI gets the last feedKeep items and termKeep bytes;
// the full transcript stays on disk.
const (
	feedKeep   = 2000
	termKeep   = 1 << 20
	textLimit  = 16 << 10
	batchEvery = 50 * time.Millisecond
)

// taskLive is one task's bounded live buffer plus what is not yet emitted.
type taskLive struct {
	seq      int64
	feed     []FeedItem
	term     []byte
	carry    []byte // an incomplete UTF-8 sequence at the end of the last chunk
	bytes    int64
	pendFeed []FeedItem
	pendTerm strings.Builder
}

// LiveOutput buffers running tasks' output and emits it in batches of at
// most one event per task per 50 ms, so a 10 MB/s agent costs the UI about
// 20 events a second.
type LiveOutput struct {
	emit  Emitter
	scrub func(string) string
	now   func() time.Time

	mu    sync.Mutex
	tasks map[string]*taskLive
	dirty map[string]bool
	stop  chan struct{}
	wg    sync.WaitGroup
}

// NewLiveOutput starts the batcher, which flushes every interval (0 means
// 50 ms); Close stops it.
func NewLiveOutput(emit Emitter, scrub func(string) string, now func() time.Time, interval time.Duration) *LiveOutput {
	if interval <= 0 {
		interval = batchEvery
	}
	l := &LiveOutput{emit: emit, scrub: scrub, now: now, tasks: map[string]*taskLive{}, dirty: map[string]bool{}, stop: make(chan struct{})}
	l.wg.Add(1)
	go l.loop(interval)
	return l
}

func (l *LiveOutput) get(id string) *taskLive {
	t := l.tasks[id]
	if t == nil {
		t = &taskLive{}
		l.tasks[id] = t
	}
	return t
}

// Add appends a feed item; its Seq, At and Kind (that of Data) are set
// here, and the free text of Data is bounded and scrubbed. An item without
// Data is dropped.
func (l *LiveOutput) Add(taskID string, it FeedItem) {
	if it.Data == nil {
		return
	}
	it.Data = task.MapText(it.Data, l.bound)
	it.Kind = it.Data.Kind()
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.get(taskID)
	t.seq++
	it.Seq, it.At = t.seq, l.now()
	t.feed = append(t.feed, it)
	if len(t.feed) > 2*feedKeep {
		t.feed = append(make([]FeedItem, 0, 2*feedKeep), t.feed[len(t.feed)-feedKeep:]...)
	}
	t.pendFeed = append(t.pendFeed, it)
	if len(t.pendFeed) > 2*feedKeep {
		t.pendFeed = append([]FeedItem(nil), t.pendFeed[len(t.pendFeed)-feedKeep:]...)
	}
	l.dirty[taskID] = true
}

// bound shortens a feed text to textLimit bytes and scrubs it.
func (l *LiveOutput) bound(s string) string {
	if len(s) > textLimit {
		s = s[:textLimit] + "\n… (truncated here; the full text is in the transcript)"
	}
	return l.scrub(strings.ToValidUTF8(s, "\uFFFD"))
}

// Write appends raw PTY bytes for the terminal view. Invalid UTF-8 is
// replaced for display only (the transcript keeps the raw bytes).
func (l *LiveOutput) Write(taskID string, chunk []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.get(taskID)
	t.bytes += int64(len(chunk))
	data := append(t.carry, chunk...)
	cut := len(data)
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				cut = i
			}
			break
		}
	}
	t.carry = append([]byte(nil), data[cut:]...)
	text := l.scrub(strings.ToValidUTF8(string(data[:cut]), "\uFFFD"))
	t.term = append(t.term, text...)
	if len(t.term) > 2*termKeep { // compact rarely: amortised O(1) per byte
		t.term = append(make([]byte, 0, 2*termKeep), t.term[len(t.term)-termKeep:]...)
	}
	if len(text) >= termKeep {
		t.pendTerm.Reset()
		text = text[len(text)-termKeep:]
	} else if t.pendTerm.Len()+len(text) > 2*termKeep {
		keep := t.pendTerm.String()[t.pendTerm.Len()-termKeep:]
		t.pendTerm.Reset()
		t.pendTerm.WriteString(keep)
	}
	t.pendTerm.WriteString(text)
	l.dirty[taskID] = true
}

// Snapshot returns the buffered output of a task.
func (l *LiveOutput) Snapshot(taskID string) OutputSnapshot {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := OutputSnapshot{TaskID: taskID, Feed: []FeedItem{}}
	if t := l.tasks[taskID]; t != nil {
		feed := t.feed
		if len(feed) > feedKeep {
			feed = feed[len(feed)-feedKeep:]
		}
		s.Feed = append(s.Feed, feed...)
		term := t.term
		if len(term) > termKeep {
			term = term[len(term)-termKeep:]
		}
		s.Terminal = string(term)
		s.TranscriptBytes = t.bytes
	}
	return s
}

// Forget drops a task's buffer (when its run ended and the UI reloaded).
func (l *LiveOutput) Forget(taskID string) {
	l.mu.Lock()
	delete(l.tasks, taskID)
	delete(l.dirty, taskID)
	l.mu.Unlock()
}

func (l *LiveOutput) loop(interval time.Duration) {
	defer l.wg.Done()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-l.stop:
			l.flush()
			return
		case <-tick.C:
			l.flush()
		}
	}
}

// flush emits one batch per task with new output.
func (l *LiveOutput) flush() {
	l.mu.Lock()
	var batches []OutputBatch
	for id := range l.dirty {
		t := l.tasks[id]
		if t == nil {
			continue
		}
		term := t.pendTerm.String()
		if len(term) > termKeep {
			term = term[len(term)-termKeep:]
		}
		feed := t.pendFeed
		if len(feed) > feedKeep {
			feed = feed[len(feed)-feedKeep:]
		}
		b := OutputBatch{TaskID: id, Feed: feed, Terminal: term}
		if b.Feed == nil {
			b.Feed = []FeedItem{}
		}
		t.pendFeed = nil
		t.pendTerm.Reset()
		batches = append(batches, b)
	}
	clear(l.dirty)
	l.mu.Unlock()
	for _, b := range batches {
		l.emit.Emit(EventTaskOutputPrefix+b.TaskID, b)
	}
}

// Close stops the batcher after a last flush.
func (l *LiveOutput) Close() {
	close(l.stop)
	l.wg.Wait()
}
