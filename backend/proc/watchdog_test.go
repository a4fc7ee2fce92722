//go:build linux

package proc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestIdleWatchdogFires(t *testing.T) {
	r := newRunner(t)
	mark := newMark(t)
	s := shSpec(t, mark, `echo hi; sleep 1000`)
	s.IdleTimeout = 300 * time.Millisecond
	x := start(t, r, s)
	res := wait(t, x.h)
	if res.Reason != ReasonStalled || !errors.Is(res.Err(), ErrStalled) {
		t.Fatalf("result %+v err %v", res, res.Err())
	}
	var se *StalledError
	if !errors.As(res.Err(), &se) || se.Idle != s.IdleTimeout {
		t.Fatalf("err %#v", res.Err())
	}
	if res.Duration < s.IdleTimeout {
		t.Fatalf("fired after %s, before the idle timeout %s", res.Duration, s.IdleTimeout)
	}
	assertGone(t, mark, nil)
}

func TestIdleWatchdogResetByOutput(t *testing.T) {
	r := newRunner(t)
	// Ticks 0.2 s apart for 6 s against a 3 s idle timeout: wide enough for a
	// loaded machine under -race, and the run still outlasts the timeout.
	s := shSpec(t, newMark(t), `i=0; while [ $i -lt 30 ]; do echo tick; sleep 0.2; i=$((i+1)); done`)
	s.IdleTimeout = 3 * time.Second
	x := start(t, r, s)
	res := wait(t, x.h)
	if res.Reason != ReasonNone || res.Err() != nil || strings.Count(x.output(), "tick") != 30 {
		t.Fatalf("result %+v output %q", res, x.output())
	}
	if res.Duration <= s.IdleTimeout {
		t.Fatalf("test did not outlast the idle timeout: %s", res.Duration)
	}
}

func TestStalledErrorNamesMinutes(t *testing.T) {
	cases := map[time.Duration]string{
		20 * time.Minute:       "stalled: no output for 20 min",
		90 * time.Second:       "stalled: no output for 1.5 min",
		300 * time.Millisecond: "stalled: no output for 300ms",
	}
	for d, want := range cases {
		if got := (&StalledError{Idle: d}).Error(); got != want {
			t.Errorf("%s: %q, want %q", d, got, want)
		}
	}
}

func TestMaxRuntime(t *testing.T) {
	r := newRunner(t)
	mark := newMark(t)
	s := shSpec(t, mark, `while :; do echo busy; sleep 0.05; done`)
	s.MaxRuntime = 300 * time.Millisecond
	s.IdleTimeout = time.Hour
	x := start(t, r, s)
	res := wait(t, x.h)
	if res.Reason != ReasonTimeout || !errors.Is(res.Err(), ErrTimeout) || res.Duration < s.MaxRuntime {
		t.Fatalf("result %+v err %v", res, res.Err())
	}
	assertGone(t, mark, nil)
}

func TestOutputLimit(t *testing.T) {
	r := newRunner(t)
	mark := newMark(t)
	path := filepath.Join(t.TempDir(), "t.log")
	s := shSpec(t, mark, `exec yes`)
	s.OutputLimit = 100001
	s.TranscriptPath = path
	x := start(t, r, s)
	res := wait(t, x.h)
	if res.Reason != ReasonOutputLimit || !errors.Is(res.Err(), ErrOutputLimit) || res.Bytes <= s.OutputLimit {
		t.Fatalf("result %+v err %v", res, res.Err())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat("y\n", 50000) + "y" + "\n[boof-runner] output limit of 100001 bytes reached; process stopped\n"
	if string(b) != want {
		t.Fatalf("transcript: %d bytes, tail %q", len(b), b[max(0, len(b)-80):])
	}
	if got := x.output(); got != want[:100001] {
		t.Fatalf("consumer got %d bytes", len(got))
	}
	assertGone(t, mark, nil)
}

func TestContextCancelStops(t *testing.T) {
	r := newRunner(t)
	mark := newMark(t)
	ctx, cancel := context.WithCancel(context.Background())
	s := helperSpec(t, mark, "ignore-term")
	s.Grace = 200 * time.Millisecond
	var out lockedBuffer
	s.OnChunk = func(b []byte) { _, _ = out.Write(b) }
	h, err := r.Start(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	res := wait(t, h)
	if res.Reason != ReasonCanceled || !errors.Is(res.Err(), ErrCanceled) || !errors.Is(res.Err(), ErrStopped) {
		t.Fatalf("result %+v err %v", res, res.Err())
	}
	assertGone(t, mark, nil)
}
