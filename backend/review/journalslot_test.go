package review

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// The intent slot: an intent is pending until removed, a rollback written
// since supersedes it, a longer earlier record leaves nothing behind, and
// a write cut short reads as no move at all.
func TestJournalSlot(t *testing.T) {
	j := NewJournal(t.TempDir(), "")
	if err := os.MkdirAll(j.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	pending := func() []Move {
		t.Helper()
		ms, err := j.Pending()
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	long := Move{ID: "a", Op: OpAccept, TaskID: "t1", Ref: "refs/heads/main", Old: "1", New: "2", State: stateIntent,
		Record: AcceptRecord{Target: "refs/heads/main", Leftovers: "a long field to make this record the longer one"}, At: time.Unix(1, 0)}
	if err := j.write(long); err != nil {
		t.Fatal(err)
	}
	if ms := pending(); len(ms) != 1 || ms[0].ID != "a" || ms[0].State != stateIntent {
		t.Fatalf("pending %+v, want the intent a", ms)
	}
	back := long
	back.State = stateRollback
	if err := j.write(back); err != nil {
		t.Fatal(err)
	}
	if ms := pending(); len(ms) != 1 || ms[0].State != stateRollback {
		t.Fatalf("pending %+v, want only a's rollback", ms)
	}
	if err := j.remove("a"); err != nil {
		t.Fatal(err)
	}
	if ms := pending(); len(ms) != 0 {
		t.Fatalf("pending %+v after remove", ms)
	}
	short := Move{ID: "b", Op: OpUndo, TaskID: "t2", State: stateIntent, At: time.Unix(2, 0)}
	if err := j.write(long); err != nil {
		t.Fatal(err)
	}
	if err := j.write(short); err != nil {
		t.Fatal(err)
	}
	if ms := pending(); len(ms) != 1 || ms[0].ID != "b" || ms[0].TaskID != "t2" {
		t.Fatalf("pending %+v, want only b", ms)
	}
	// A write cut short: the record's tail is missing, and NULs or the
	// tail of an earlier, longer record are there instead.
	shortRec := readSlotFile(t, j)
	if err := j.write(long); err != nil {
		t.Fatal(err)
	}
	longRec := readSlotFile(t, j)
	cut := recordEnd(t, shortRec) / 2
	overNULs := append(append([]byte{}, shortRec[:cut]...), make([]byte, len(shortRec)-cut)...)
	overLong := append(append([]byte{}, shortRec[:cut]...), longRec[cut:]...)
	for name, torn := range map[string][]byte{"over NULs": overNULs, "over a longer record": overLong} {
		if err := os.WriteFile(j.slotPath(), torn, 0o600); err != nil {
			t.Fatal(err)
		}
		if ms := pending(); len(ms) != 0 {
			t.Fatalf("pending %+v from a slot torn %s, want none", ms, name)
		}
	}
	if err := j.write(long); err != nil {
		t.Fatal(err)
	}
	if ms := pending(); len(ms) != 1 || ms[0].ID != "a" {
		t.Fatalf("pending %+v, want a again after a torn slot", ms)
	}
}

// The slot keeps its size through writes and clears, so that its fsync
// has no size to write.
func TestJournalSlotKeepsItsSize(t *testing.T) {
	j := NewJournal(t.TempDir(), "")
	if err := os.MkdirAll(j.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	size := func() int64 {
		t.Helper()
		fi, err := os.Stat(j.slotPath())
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	for i, m := range []Move{
		{ID: "a", Op: OpAccept, TaskID: "t1", Ref: "refs/heads/main", State: stateIntent, At: time.Unix(1, 0)},
		{ID: "b", Op: OpUndo, TaskID: "a-longer-task-id", Ref: "refs/heads/feature/x", Old: "1", New: "2", State: stateIntent, At: time.Unix(2, 0)},
	} {
		if err := j.write(m); err != nil {
			t.Fatal(err)
		}
		if got := size(); got != slotBlock {
			t.Fatalf("move %d: slot of %d bytes after the write, want %d", i, got, slotBlock)
		}
		if ms, err := j.Pending(); err != nil || len(ms) != 1 || ms[0].ID != m.ID {
			t.Fatalf("move %d: pending %+v (%v), want %s", i, ms, err, m.ID)
		}
		if err := j.remove(m.ID); err != nil {
			t.Fatal(err)
		}
		if got := size(); got != slotBlock {
			t.Fatalf("move %d: slot of %d bytes after the clear, want %d", i, got, slotBlock)
		}
		if ms, err := j.Pending(); err != nil || len(ms) != 0 {
			t.Fatalf("move %d: pending %+v (%v) after the clear, want none", i, ms, err)
		}
	}
	// A record longer than a block takes whole blocks and still reads back.
	big := Move{ID: "c", Op: OpAccept, TaskID: "t3", State: stateIntent, At: time.Unix(3, 0),
		Record: AcceptRecord{Leftovers: strings.Repeat("x", 2*slotBlock)}}
	if err := j.write(big); err != nil {
		t.Fatal(err)
	}
	if got := size(); got%slotBlock != 0 || got < 2*slotBlock {
		t.Fatalf("slot of %d bytes for a record over two blocks", got)
	}
	if ms, err := j.Pending(); err != nil || len(ms) != 1 || ms[0].Record.Leftovers != big.Record.Leftovers {
		t.Fatalf("pending %d moves (%v), want the long record back whole", len(ms), err)
	}
}

func readSlotFile(t *testing.T, j *Journal) []byte {
	t.Helper()
	b, err := os.ReadFile(j.slotPath())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recordEnd is where the slot's record ends: after its checksum line and
// its JSON line.
func recordEnd(t *testing.T, b []byte) int {
	t.Helper()
	first := bytes.IndexByte(b, '\n')
	second := bytes.IndexByte(b[first+1:], '\n')
	if first < 0 || second < 0 {
		t.Fatalf("slot holds no record: %q", b)
	}
	return first + 1 + second + 1
}
