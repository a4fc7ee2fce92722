package review

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// The intent of a move is written in place into one slot file that
// already exists (moves are serialized by the journal lock), with one
// fdatasync: no new directory entry has to be made durable, which a file
// per move needed (a temporary file, a rename and two fsyncs). A write cut
// short by a crash leaves a slot whose checksum does not match: its move
// never started (the ref moves only once the intent is durable), so such
// a slot is read as empty. A rollback, which must never be lost half
// written, still goes to a file of its own by rename (write). Clearing the
// slot need not be durable: a finished move found again after a power
// loss is resolved as finished.

const slotName = "intent.slot"

func (j *Journal) slotPath() string { return filepath.Join(j.dir, slotName) }

// writeSlot stores m as the intent in the slot, durably.
func (j *Journal) writeSlot(m Move) error {
	data, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("write accept journal: %w", err)
	}
	sum := sha256.Sum256(data)
	rec := append([]byte(hex.EncodeToString(sum[:])+"\n"), data...)
	rec = append(rec, '\n')
	path := j.slotPath()
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("write accept journal: %w", err)
	}
	if _, err := f.WriteAt(rec, 0); err != nil {
		f.Close()
		return fmt.Errorf("write accept journal: %w", err)
	}
	if err := f.Truncate(int64(len(rec))); err != nil {
		f.Close()
		return fmt.Errorf("write accept journal: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write accept journal: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write accept journal: %w", err)
	}
	if statErr != nil { // the slot was made now: its name must be durable too
		return j.syncDir()
	}
	return nil
}

// clearSlot empties the slot when it holds the move id.
func (j *Journal) clearSlot(id string) {
	if m, ok := j.readSlot(); ok && m.ID == id {
		_ = os.Truncate(j.slotPath(), 0)
	}
}

// readSlot returns the move in the slot; ok is false when it holds none
// (empty, missing, or a write cut short).
func (j *Journal) readSlot() (Move, bool) {
	b, err := os.ReadFile(j.slotPath())
	if err != nil || len(b) == 0 {
		return Move{}, false
	}
	sumHex, data, found := bytes.Cut(b, []byte("\n"))
	data = bytes.TrimSuffix(data, []byte("\n"))
	sum := sha256.Sum256(data)
	if !found || string(sumHex) != hex.EncodeToString(sum[:]) {
		return Move{}, false
	}
	var m Move
	if err := json.Unmarshal(data, &m); err != nil || m.ID == "" {
		return Move{}, false
	}
	return m, true
}
