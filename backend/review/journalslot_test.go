package review

import (
	"os"
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
	// A write cut short: the record's tail is missing.
	b, err := os.ReadFile(j.slotPath())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(j.slotPath(), b[:len(b)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	if ms := pending(); len(ms) != 0 {
		t.Fatalf("pending %+v from a torn slot, want none", ms)
	}
	if err := j.write(long); err != nil {
		t.Fatal(err)
	}
	if ms := pending(); len(ms) != 1 || ms[0].ID != "a" {
		t.Fatalf("pending %+v, want a again after a torn slot", ms)
	}
}
