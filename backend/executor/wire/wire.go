// Package wire is the protocol between a task run in a cluster and the
// desktop that queued it: the input a pod reads (Input), the records the
// pod prints on its log (Record) and how both are encoded. The pod's side
// is backend/executor/exectask, the desktop's backend/executor/kubernetes.
package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/boof-runner/boof-runner/backend/store"
	"github.com/boof-runner/boof-runner/backend/task"
)

// Prefix starts every record line of a pod's log; the log's other lines
// (a shell's, the runtime's) are not records.
const Prefix = "boof-runner/1 "

// MaxLine is the longest record line read back (a checkpoint's bundle is
// inside its line).
const MaxLine = 256 << 20

// The files of a pod's input folder.
const (
	// TaskFile holds the Input.
	TaskFile = "task.json"
	// BaseFile holds the base bundle.
	BaseFile = "base.bundle"
)

// Input is what a pod runs: the task's rows, the settings and the
// attachments. The base repository comes beside it as a git bundle.
type Input struct {
	// Version is the desktop's boof-runner version; Schema its store's
	// (a pod of another schema refuses the rows).
	Version string `json:"version"`
	Schema  int    `json:"schema"`
	TaskID  string `json:"task_id"`
	// Rows are the task's rows (store.ExportTaskRows).
	Rows store.TaskRows `json:"rows"`
	// Settings is the settings file the run uses, without its executor.
	Settings json.RawMessage `json:"settings"`
	// Attachments are the task's attached files by name.
	Attachments map[string][]byte `json:"attachments,omitempty"`
	// Base is the commit the task's base resolved to when it was claimed
	// and BaseRef the ref the task names ("" for the repository's HEAD);
	// Refs are the refs the bundle holds (full name → sha).
	Base    string            `json:"base"`
	BaseRef string            `json:"base_ref,omitempty"`
	Refs    map[string]string `json:"refs"`
}

// Kind names a record's kind.
type Kind string

// The record kinds.
const (
	// KindEvent is a task event (stored or live) of execution Exec.
	KindEvent Kind = "event"
	// KindLog is a line of the task's log.
	KindLog Kind = "log"
	// KindOutput is raw output of execution Exec's process.
	KindOutput Kind = "out"
	// KindCheckpoint is the work so far: a bundle of the task's refs and
	// the sections stored since the last checkpoint.
	KindCheckpoint Kind = "checkpoint"
	// KindFinal is how the run ended; nothing follows it.
	KindFinal Kind = "final"
	// KindFail is a run that could not start (bad input); nothing follows.
	KindFail Kind = "fail"
)

// Record is one line of a pod's stream.
type Record struct {
	Seq  int64 `json:"seq"`
	Kind Kind  `json:"k"`
	// Exec is the pod's execution the record belongs to (0: the run's).
	Exec int64 `json:"x,omitempty"`
	// Event is a KindEvent's.
	Event *Event `json:"e,omitempty"`
	// Level and Text are a KindLog's; Text is also a KindFail's message.
	Level task.LogLevel `json:"l,omitempty"`
	Text  string        `json:"t,omitempty"`
	// Output is a KindOutput's bytes.
	Output []byte `json:"o,omitempty"`
	// Checkpoint is a KindCheckpoint's.
	Checkpoint *Checkpoint `json:"c,omitempty"`
	// Final is a KindFinal's.
	Final *Final `json:"f,omitempty"`
}

// Event is a task event as a record carries it.
type Event struct {
	Kind task.EventKind  `json:"kind"`
	At   time.Time       `json:"at"`
	Data json.RawMessage `json:"data"`
}

// NewEvent encodes e.
func NewEvent(e task.Event) (*Event, error) {
	b, err := json.Marshal(e.Data)
	if err != nil {
		return nil, fmt.Errorf("encode event %s: %w", e.Kind(), err)
	}
	return &Event{Kind: e.Kind(), At: e.At, Data: b}, nil
}

// Decode returns the event of taskID.
func (e Event) Decode(taskID string) task.Event {
	return task.Event{TaskID: taskID, At: e.At, Data: task.DecodeEvent(e.Kind, e.Data)}
}

// Checkpoint is the task's work at a step's end or the run's: Refs are
// the task's refs (full name → sha; "" for one the run deleted), Bundle
// holds their commits that the desktop lacks (the base and the refs of
// earlier checkpoints are its prerequisites; empty when no ref moved),
// Sections the reports stored since the last checkpoint.
type Checkpoint struct {
	Refs     map[string]string `json:"refs"`
	Bundle   []byte            `json:"bundle,omitempty"`
	Sections []task.Section    `json:"sections,omitempty"`
	// Final is set on the run's last checkpoint: its refs are all the
	// task's refs (one it does not name is not the run's).
	Final bool `json:"final,omitempty"`
}

// Final is how the run ended in the pod: the outcome its store decided.
type Final struct {
	Status  task.Status          `json:"status"`
	Message string               `json:"message,omitempty"`
	Note    store.TransitionNote `json:"note"`
	// CountRun and CountFix are the decision's counts (store.Decided).
	CountRun bool `json:"count_run,omitempty"`
	CountFix bool `json:"count_fix,omitempty"`
	// Questions are the planner's, for a task that waits in actions.
	Questions []string `json:"questions,omitempty"`
}

// Writer prints records as lines, numbering them; safe for concurrent use.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	seq int64
	err error
}

// NewWriter returns a Writer printing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write numbers r and prints it as one line. Once a write failed, every
// later one returns that error.
func (w *Writer) Write(r Record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	w.seq++
	r.Seq = w.seq
	b, err := json.Marshal(r)
	if err != nil {
		w.seq--
		return fmt.Errorf("encode record %s: %w", r.Kind, err)
	}
	line := make([]byte, 0, len(Prefix)+len(b)+1)
	line = append(append(append(line, Prefix...), b...), '\n')
	if _, err := w.w.Write(line); err != nil {
		w.err = fmt.Errorf("write record: %w", err)
	}
	return w.err
}

// ErrNotRecord is returned by Parse for a line that is not a record.
var ErrNotRecord = errors.New("not a record line")

// Parse reads one line of a pod's log: a record, ErrNotRecord for any
// other line, or an error for a record line that does not decode.
func Parse(line []byte) (Record, error) {
	line = bytes.TrimRight(line, "\r\n")
	if !bytes.HasPrefix(line, []byte(Prefix)) {
		return Record{}, ErrNotRecord
	}
	var r Record
	if err := json.Unmarshal(line[len(Prefix):], &r); err != nil {
		return Record{}, fmt.Errorf("record line: %w", err)
	}
	if r.Seq <= 0 || r.Kind == "" {
		return Record{}, fmt.Errorf("record line without a sequence number or kind")
	}
	return r, nil
}

// NewScanner returns a line scanner for a pod's log that takes lines up
// to MaxLine.
func NewScanner(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	return sc
}

// ReadInput decodes an Input, its integers kept exact.
func ReadInput(r io.Reader) (Input, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var in Input
	if err := dec.Decode(&in); err != nil {
		return Input{}, fmt.Errorf("read task input: %w", err)
	}
	if in.TaskID == "" || len(in.Rows["tasks"]) != 1 || strings.TrimSpace(in.Base) == "" {
		return Input{}, fmt.Errorf("read task input: it names no task or no base commit")
	}
	return in, nil
}

// WipRef is the ref holding a snapshot of a task's uncommitted work at a
// step's end (a commit on the worktree's HEAD): the desktop keeps it while
// the run goes on, and makes it the task's leftovers branch when the pod
// is lost before its end.
func WipRef(taskID string) string { return "refs/boof-runner/wip/" + taskID }

// TaskRefPatterns are the for-each-ref patterns of a task's refs: its
// branch and leftovers branch, the refs a read-only step's or an earlier
// leftovers' commits are kept at, and its work-in-progress snapshot.
func TaskRefPatterns(taskID string) []string {
	return []string{"refs/heads/boof-runner/" + taskID, "refs/heads/boof-runner/" + taskID + "--leftovers",
		"refs/boof-runner/" + taskID + "/", "refs/boof-runner/leftovers/" + taskID + "/", WipRef(taskID)}
}

// OwnsRef reports whether ref is one of the task's refs (TaskRefPatterns).
func OwnsRef(taskID, ref string) bool {
	switch ref {
	case "refs/heads/boof-runner/" + taskID, "refs/heads/boof-runner/" + taskID + "--leftovers", WipRef(taskID):
		return true
	}
	for _, p := range []string{"refs/boof-runner/" + taskID + "/", "refs/boof-runner/leftovers/" + taskID + "/"} {
		if strings.HasPrefix(ref, p) && len(ref) > len(p) && !strings.Contains(ref[len(p):], "..") {
			return true
		}
	}
	return false
}

// ControlPort is the port of a pod's control endpoint (POST /inject with
// an InjectRequest, POST /stop, GET /healthz), reached through the API
// server's pod proxy.
const ControlPort = 8426

// InjectRequest is the body of POST /inject: an injected prompt of the
// desktop's, under its id there.
type InjectRequest struct {
	ID   int64  `json:"id"`
	Text string `json:"text"`
}

// InjectReply answers POST /inject: Added is false for a prompt the pod
// had already.
type InjectReply struct {
	Added bool `json:"added"`
}
