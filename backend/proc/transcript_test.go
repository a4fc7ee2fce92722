//go:build linux

package proc

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestTranscriptIsDurableWhileRunning(t *testing.T) {
	r := newRunner(t)
	mark := newMark(t)
	path := filepath.Join(t.TempDir(), "runs", "deep", "step.log")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("earlier\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := shSpec(t, mark, `printf 'first\n'; sleep 1000`)
	s.TranscriptPath = path
	x := start(t, r, s)
	x.waitFor(t, "first\n")
	// The child is still running: the bytes must reach the file anyway
	// (within transcriptFlushEvery; the loop only guards against a hang).
	deadline := time.Now().Add(safety)
	for {
		b, err := os.ReadFile(path)
		if err == nil && string(b) == "earlier\nfirst\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("transcript while running %q %v", b, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if p, ok := readStat(x.h.Pid()); !ok || p.zombie {
		t.Fatal("child ended before the transcript was checked")
	}
	x.h.Stop(ReasonStopped)
	wait(t, x.h)
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("transcript mode %v %v", st.Mode(), err)
	}
}

func TestTranscriptDirsCreated0700(t *testing.T) {
	r := newRunner(t)
	path := filepath.Join(t.TempDir(), "a", "b", "t.log")
	s := shSpec(t, newMark(t), `printf 'x'`)
	s.TranscriptPath = path
	wait(t, start(t, r, s).h)
	st, err := os.Stat(filepath.Dir(path))
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %v %v", st, err)
	}
	if b, _ := os.ReadFile(path); string(b) != "x" {
		t.Fatalf("transcript %q", b)
	}
}

func TestTranscriptWriteFailureStops(t *testing.T) {
	r := newRunner(t)
	mark := newMark(t)
	s := shSpec(t, mark, `echo hello; sleep 1000`)
	s.TranscriptPath = "/dev/full" // every write fails with ENOSPC
	s.Grace = 200 * time.Millisecond
	x := start(t, r, s)
	res := wait(t, x.h)
	if res.Reason != ReasonTranscript || !errors.Is(res.Err(), ErrTranscript) {
		t.Fatalf("result %+v err %v", res, res.Err())
	}
	assertGone(t, mark, nil)
}
