package review

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/boof-runner/boof-runner/backend/atomicfile"
	"github.com/boof-runner/boof-runner/backend/filelock"
	"github.com/boof-runner/boof-runner/backend/userfile"
)

// Op is what a journaled ref move does for the task.
type Op string

const (
	// OpAccept brings a task's work into a target branch (a whole accept
	// now; hunk accepts and the merge queue's landings are accepts too).
	OpAccept Op = "accept"
	// OpUndo moves the target back from an accept's commit.
	OpUndo Op = "undo"
)

// Move states.
const (
	// stateIntent: the move may have happened in part; Reconcile completes
	// it (or rolls it back when it cannot complete).
	stateIntent = "intent"
	// stateRollback: the move failed and was being put back; Reconcile
	// finishes putting it back.
	stateRollback = "rollback"
)

// Move is one journaled ref move: written durably before the ref moves and
// removed once the move is recorded (or rolled back), so that a move cut
// short by a crash is found and finished by the next start.
type Move struct {
	ID string `json:"id"`
	Op Op     `json:"op"`
	// TaskID names the task whose work moves.
	TaskID string `json:"task_id"`
	// Repo is a directory of the repository; Common its common git dir.
	Repo   string `json:"repo"`
	Common string `json:"common"`
	// Ref is the full ref that moves from Old to New.
	Ref string `json:"ref"`
	Old string `json:"old"`
	New string `json:"new"`
	// Strategy is the accept's strategy (for the record only).
	Strategy Strategy `json:"strategy,omitempty"`
	// Checkout is the directory where Ref was checked out when the intent
	// was written ("" when nowhere); CheckoutClean says it then matched Old
	// with no uncommitted change in the way.
	Checkout      string `json:"checkout,omitempty"`
	CheckoutClean bool   `json:"checkout_clean"`
	// Record is the accept this move records (OpAccept) or undoes (OpUndo).
	Record AcceptRecord `json:"record"`
	// State is "intent", or "rollback" once a failed move is being put back.
	State string    `json:"state"`
	At    time.Time `json:"at"`
}

// ErrNoJournal: the Service was built without WithJournal; it cannot move
// a ref safely.
var ErrNoJournal = errors.New("review service has no accept journal")

// Journal keeps the moves in flight in a directory of the data root, one
// JSON file each, written atomically and fsynced. A lock file serializes
// every move and reconciliation of the data root across processes; a
// process that dies releases it.
type Journal struct {
	dir   string
	scope string
}

// NewJournal returns the journal kept in dir (created on first use). scope
// is the data root's step-tag scope (proc.Scope): the git commands of an
// accept carry it, so that reconciliation ends those a crash left running.
func NewJournal(dir, scope string) *Journal { return &Journal{dir: dir, scope: scope} }

// Dir returns the journal's directory.
func (j *Journal) Dir() string { return j.dir }

// lockPoll is how often a journal lock held elsewhere is tried again.
const lockPoll = 20 * time.Millisecond

// lock takes the journal's exclusive lock, waiting until ctx ends.
func (j *Journal) lock(ctx context.Context) (func(), error) {
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return nil, fmt.Errorf("accept journal: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(j.dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("accept journal: %w", err)
	}
	for {
		err := filelock.TryLock(f)
		if err == nil {
			return func() {
				_ = filelock.Unlock(f)
				f.Close()
			}, nil
		}
		if !errors.Is(err, filelock.ErrLocked) {
			f.Close()
			return nil, fmt.Errorf("accept journal lock: %w", err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("accept journal lock: %w", ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}

func (j *Journal) path(id string) string { return filepath.Join(j.dir, id+".json") }

// write stores m durably: an intent in the slot (writeSlot), any other
// state atomically in a file of its own (atomicfile: temporary file,
// fsync, rename, directory fsync).
func (j *Journal) write(m Move) error {
	if m.State == stateIntent {
		return j.writeSlot(m)
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("write accept journal: %w", err)
	}
	if err := atomicfile.WriteFile(j.path(m.ID), append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("write accept journal: %w", err)
	}
	return nil
}

// remove drops a finished move. It need not be durable: a finished move
// found again after a power loss is resolved as finished.
func (j *Journal) remove(id string) error {
	j.clearSlot(id)
	if err := os.Remove(j.path(id)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("clear accept journal: %w", err)
	}
	return nil
}

func (j *Journal) syncDir() error {
	if err := atomicfile.SyncDir(j.dir); err != nil {
		return fmt.Errorf("sync accept journal: %w", err)
	}
	return nil
}

// Pending returns the moves in the journal, oldest first. A file that
// cannot be parsed is returned as an error naming it (and left alone).
func (j *Journal) Pending() ([]Move, error) {
	ents, err := os.ReadDir(j.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read accept journal: %w", err)
	}
	var out []Move
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
			continue
		}
		data, err := userfile.ReadKept(filepath.Join(j.dir, name))
		if err != nil {
			return nil, fmt.Errorf("read accept journal: %w", err)
		}
		var m Move
		if err := json.Unmarshal(data, &m); err != nil || m.ID+".json" != name {
			return nil, fmt.Errorf("accept journal entry %s cannot be read (%v); it was left alone: check the target branch of its task, then move the file away to go on", filepath.Join(j.dir, name), err)
		}
		out = append(out, m)
	}
	if m, ok := j.readSlot(); ok {
		seen := false
		for _, o := range out {
			seen = seen || o.ID == m.ID // a rollback written since supersedes the intent
		}
		if !seen {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].At.Before(out[b].At) })
	return out, nil
}

// workDir is where temporary worktrees of accepts live (a rebase replays
// there); reconciliation removes what a crash left in it.
func (j *Journal) workDir() string { return filepath.Join(j.dir, "work") }

func newMoveID(now time.Time) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}
